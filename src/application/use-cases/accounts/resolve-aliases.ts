// Rule (API.md §4.3 "Moving in"): `also_known_as` names at most 5 other accounts of the person, each an actor URL
// or a handle. Too many or a malformed one is refused before anything is fetched; an id the profile already holds
// is kept without a fetch; every other entry is resolved afresh (counted towards LOOKUPS_PER_USER) and stored as the
// actor's id; duplicates collapse; the user's own actor, or one that does not resolve, is refused — all with the
// path `also_known_as`.
import { aliasesToResolve, aliasIds, parseAlsoKnownAs } from '../../../domain/also-known-as.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { UserProfile } from '../../../domain/user.js';
import type { Urls } from '../../../domain/activity-streams.js';
import type { ActorResolution, ResolutionRefusal } from '../../services/actor-resolution.js';

const PATH = 'also_known_as';

/** What the person gave: a list (JSON), one text with one entry per line (the form), or null (clears). */
export type AliasInput = readonly string[] | string | null;

/** The actor ids `input` names for `user`, in the order given, or why not. */
export async function resolveAliases(
  resolution: Pick<ActorResolution, 'resolve'>,
  urls: Urls,
  user: UserProfile,
  input: AliasInput,
): Promise<Result<string[], ResolutionRefusal>> {
  const names = parseAlsoKnownAs(input);
  if (!names.ok) return err({ type: 'invalid_request', ...names.error });
  const ids: string[] = [];
  for (const entry of aliasesToResolve(names.value, user.profile.alsoKnownAs)) {
    if ('id' in entry) {
      ids.push(entry.id);
      continue;
    }
    const resolved = await resolution.resolve(user.username, entry.name, PATH);
    if (!resolved.ok) return resolved;
    ids.push(resolved.value.id);
  }
  const checked = aliasIds(ids, urls.actor(user.username));
  return checked.ok ? ok(checked.value) : err({ type: 'invalid_request', ...checked.error });
}
