import { actorNameText, parseActorName, type ActorName } from './actor-name.js';
import type { ProfileFieldError } from './profile.js';
import { err, ok, type Result } from './result.js';

/**
 * The profile's `also_known_as` (API.md §4.3 "Moving in"): the other accounts of the same person, so that a `Move`
 * from one of them is followed here. The profile keeps each as the actor id it resolved to; the actor shows them
 * as `alsoKnownAs`.
 */

/** At most this many entries. */
export const ALSO_KNOWN_AS_MAX = 5;

const PATH = 'also_known_as';

/**
 * The entries a person gave — a list (JSON) or one text with one entry per line (the form) — read as actor names:
 * blank lines dropped, the same name twice kept once; `null` or nothing left clears. More than `ALSO_KNOWN_AS_MAX`
 * or a malformed entry is refused here, before any of them is fetched.
 */
export function parseAlsoKnownAs(
  input: readonly string[] | string | null,
): Result<ActorName[], ProfileFieldError> {
  if (input === null) return ok([]);
  const lines = typeof input === 'string' ? input.split(/\r\n?|\n/) : input;
  const names = new Map<string, ActorName>();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const name = parseActorName(line);
    if (!name.ok) return err({ path: PATH, message: `'${line.trim()}': ${name.error}` });
    names.set(actorNameText(name.value), name.value);
  }
  if (names.size > ALSO_KNOWN_AS_MAX) return err(tooMany());
  return ok([...names.values()]);
}

const tooMany = (): ProfileFieldError => ({
  path: PATH,
  message: `At most ${ALSO_KNOWN_AS_MAX} other accounts.`,
});

/** An entry as given: an id the profile already holds (`id`), or a name still to resolve (`name`). */
export type AliasEntry = { readonly id: string } | { readonly name: ActorName };

/**
 * Which of the names must be resolved, in the order given: a URL equal to an id the profile already holds is kept
 * without a fetch; every other name — a new URL, any handle — is looked up.
 */
export const aliasesToResolve = (names: readonly ActorName[], stored: readonly string[]): AliasEntry[] =>
  names.map((name) => (name.kind === 'url' && stored.includes(name.url) ? { id: name.url } : { name }));

/**
 * The `alsoKnownAs` the resolved ids make, in the order given, each once (a URL and a handle of the same actor are
 * one entry); the user's own actor is refused, and so is a sixth entry.
 */
export function aliasIds(ids: readonly string[], ownActor: string): Result<string[], ProfileFieldError> {
  const unique = [...new Set(ids)];
  if (unique.includes(ownActor))
    return err({ path: PATH, message: 'This account cannot be an alias of itself.' });
  if (unique.length > ALSO_KNOWN_AS_MAX) return err(tooMany());
  return ok(unique);
}

/** Whether two alias lists say the same, in order. */
export const sameAliases = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i]);
