import type { Urls } from '../../domain/activity-streams.js';
import type { ActorName } from '../../domain/actor-name.js';
import type { Result } from '../../domain/result.js';
import type { Username } from '../../domain/user.js';
import type { FederationClient } from '../ports/federation-client.js';
import type { RateLimit } from '../ports/rate-limit.js';
import type { UserRepository } from '../ports/user-repository.js';

/** An actor a person named (a block, an alias, a move target), read afresh. */
export interface ResolvedActor {
  readonly id: string;
  readonly inbox: string;
  readonly sharedInbox: string | null;
  readonly alsoKnownAs: readonly string[];
  readonly movedTo: string | null;
  /** Set when the name is a user of this L2 (resolved with no request; alsoKnownAs/movedTo from its profile). */
  readonly local: Username | null;
}

export type ResolutionRefusal =
  | { readonly type: 'invalid_request'; readonly path: string; readonly message: string }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

/**
 * Resolves an actor someone names (API.md §4.3 "Resolving an actor someone names"): a name on this L2 without a
 * request; a handle through WebFinger and then its actor; a URL by fetching it. Never from a cached copy.
 */
export class ActorResolution {
  constructor(
    readonly client: FederationClient,
    readonly lookups: RateLimit,
    readonly urls: Urls,
    readonly users: UserRepository,
  ) {}

  /** Always fresh (no cached copy); each outbound request counts one towards LOOKUPS_PER_USER of `asker`. */
  resolve(asker: Username, name: ActorName, path: string): Promise<Result<ResolvedActor, ResolutionRefusal>> {
    // Filled in by the next commit of fc-c1 (WebFinger client and fresh actor lookup).
    void [asker, name, path];
    return Promise.reject(new Error('ActorResolution.resolve is not written yet'));
  }
}
