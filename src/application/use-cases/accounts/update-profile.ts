// Rule: a user changes their own profile (API.md §4.2) with their own session — not another user, not a token
// scoped to an L1 server — within the budget of writes (every change is delivered to every follower). Avatar and
// header must be the user's own live https pictures, pins the user's own live assets. The profile and the Update
// deliveries to the followers' inboxes are one write; a change that leaves the profile as it was writes nothing.
// Turning manually_approves_followers off then accepts every follow request waiting (API.md §4.3).
// `also_known_as` entries are resolved (resolve-aliases.ts) once, before the write is tried, so a write retried on a
// fresher read fetches nothing again.
import {
  applyProfileChanges,
  assetsNamedBy,
  checkProfileAssets,
  sameProfile,
  type ProfileChanges,
} from '../../../domain/profile.js';
import type { Asset } from '../../../domain/asset.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped, type TokenClaims } from '../../../domain/token.js';
import { isActive, normaliseUsername, type UserProfile } from '../../../domain/user.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { Urls } from '../../../domain/activity-streams.js';
import type { Clock } from '../../ports/clock.js';
import type { FollowRequestStore } from '../../ports/follow-request-store.js';
import type { IdGenerator } from '../../ports/id-generator.js';
import { acceptWaiting } from '../federation/follow-requests/decision-jobs.js';
import type { RateLimit } from '../../ports/rate-limit.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import type { ActorResolution } from '../../services/actor-resolution.js';
import { resolveAliases, type AliasInput } from './resolve-aliases.js';

/** How often a profile changed under the write (another session of the user) is read again. */
const MAX_ATTEMPTS = 10;

export type UpdateProfileError =
  | { readonly type: 'not_found' }
  /** Another user's profile, or a token scoped to an L1 server. */
  | { readonly type: 'forbidden'; readonly reason: 'scoped_token' | 'not_yours' }
  | { readonly type: 'invalid_request'; readonly path: string; readonly message: string }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

export class UpdateProfile {
  constructor(
    private readonly users: UserRepository,
    private readonly assets: AssetRepository,
    private readonly writes: RateLimit,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly followRequests: FollowRequestStore,
    private readonly ids: IdGenerator,
    private readonly resolution: Pick<ActorResolution, 'resolve'>,
    private readonly urls: Urls,
  ) {}

  async execute(input: {
    /** The token the request was made with. */
    writer: TokenClaims;
    /** Whose profile the request names. */
    username: string;
    changes: ProfileChanges;
    /** `also_known_as` as given (API.md §4.3), resolved here; absent: not changed. */
    alsoKnownAs?: AliasInput;
  }): Promise<Result<UserProfile, UpdateProfileError>> {
    const name = normaliseUsername(input.username);
    const target = name.ok ? await this.users.findProfile(name.value) : null;
    if (!target || !isActive(target)) return err({ type: 'not_found' });
    if (isScoped(input.writer)) return err({ type: 'forbidden', reason: 'scoped_token' });
    if (input.writer.username !== target.username) return err({ type: 'forbidden', reason: 'not_yours' });
    let changes = input.changes;
    if (input.alsoKnownAs !== undefined) {
      // The other fields' refusals cost nothing: judged before any alias is fetched.
      const judged = applyProfileChanges(target.profile, changes);
      if (!judged.ok) return err({ type: 'invalid_request', ...judged.error });
      const aliases = await resolveAliases(this.resolution, this.urls, target, input.alsoKnownAs);
      if (!aliases.ok) return err(aliases.error);
      changes = { ...changes, alsoKnownAs: aliases.value };
    }

    let spent = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const user = attempt === 0 ? target : await this.users.findProfile(target.username);
      if (!user || !isActive(user)) return err({ type: 'not_found' });
      const next = applyProfileChanges(user.profile, changes);
      if (!next.ok) return err({ type: 'invalid_request', ...next.error });
      if (sameProfile(next.value, user.profile)) return ok(user);
      const named = await Promise.all(assetsNamedBy(next.value).map((n) => this.assets.findByName(n)));
      const found = new Map(named.filter((a): a is Asset => a !== null).map((a) => [a.name as string, a]));
      const checked = checkProfileAssets(next.value, user.username, found);
      if (!checked.ok) return err({ type: 'invalid_request', ...checked.error });
      if (!spent) {
        // One change is one write, however often it is applied again on a fresher read.
        const verdict = await this.writes.consume(user.username);
        if (verdict.limited)
          return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
        spent = true;
      }
      const change = {
        username: user.username,
        expectedVersion: user.profileVersion,
        profile: checked.value,
        move: user.move,
      };
      const outcome = await this.users.updateProfile(change, this.clock.now());
      if (outcome === 'not_found') return err({ type: 'not_found' });
      if (outcome === 'updated') {
        // Unlocked: every request waiting is accepted, one Accept each (as Mastodon does).
        if (user.profile.manuallyApprovesFollowers && !checked.value.manuallyApprovesFollowers)
          await acceptWaiting(this.followRequests, user.username, this.urls, this.ids, this.clock);
        this.signal.jobsQueued();
        return ok({ ...user, profile: checked.value, profileVersion: user.profileVersion + 1 });
      }
    }
    throw new Error(`the profile of ${target.username} kept changing under ${MAX_ATTEMPTS} writes`);
  }
}
