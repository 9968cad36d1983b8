import type { Urls } from '../../domain/activity-streams.js';
import { actorNameText, type ActorName } from '../../domain/actor-name.js';
import { err, ok, type Result } from '../../domain/result.js';
import { normaliseUsername, type UserProfile, type Username } from '../../domain/user.js';
import type { FederationClient } from '../ports/federation-client.js';
import type { RateLimit } from '../ports/rate-limit.js';
import type { UserRepository } from '../ports/user-repository.js';
import { canParseUrl } from '../../domain/url-parse.js';

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

type Resolution = Result<ResolvedActor, ResolutionRefusal>;

const refused = (path: string, message: string): Resolution =>
  err({ type: 'invalid_request', path, message });

/**
 * Resolves an actor someone names (API.md §4.3 "Resolving an actor someone names"): a name on this L2 without a
 * request; a handle through WebFinger and then its actor; a URL by fetching it. Never from a cached copy, and each
 * request is paid for, before it is made, from the asker's LOOKUPS_PER_USER.
 */
export class ActorResolution {
  constructor(
    private readonly client: FederationClient,
    private readonly lookups: RateLimit,
    private readonly urls: Urls,
    private readonly users: UserRepository,
  ) {}

  /** Always fresh (no cached copy); each outbound request counts one towards LOOKUPS_PER_USER of `asker`. */
  async resolve(asker: Username, name: ActorName, path: string): Promise<Resolution> {
    let url: string;
    if (name.kind === 'handle') {
      if (name.host === this.urls.address.host) return this.local(name.user, path);
      const spent = await this.spend(asker);
      if (spent) return spent;
      const found = await this.client.webfinger(name.user, name.host);
      if (!found.ok)
        return refused(path, `${actorNameText(name)} could not be found: ${found.reason}${later(found)}.`);
      url = found.self;
    } else url = name.url;
    if (this.isOwn(url)) return this.localActor(url, path);
    const spent = await this.spend(asker);
    if (spent) return spent;
    const lookup = await this.client.lookUpActor(url, { fresh: true });
    if (!lookup.ok)
      return refused(path, `${url} could not be read as an actor: ${lookup.reason}${later(lookup)}.`);
    return ok({ ...lookup.actor, local: null });
  }

  /** One point of the asker's lookups, or the refusal when none is left (nothing is asked then). */
  private async spend(asker: Username): Promise<Resolution | null> {
    const verdict = await this.lookups.consume(asker);
    return verdict.limited
      ? err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds })
      : null;
  }

  private isOwn(url: string): boolean {
    return canParseUrl(url) && new URL(url).origin === this.urls.address.origin;
  }

  /** A URL on this L2: a user's actor, answered from the store. */
  private localActor(url: string, path: string): Promise<Resolution> {
    const username = this.urls.usernameOf(url);
    if (username === null) return Promise.resolve(refused(path, `${url} is no actor of this server.`));
    return this.local(username, path);
  }

  private async local(typed: string, path: string): Promise<Resolution> {
    const username = normaliseUsername(typed);
    const user = username.ok ? await this.users.findProfile(username.value) : null;
    if (user === null || user.deletedAt !== null || user.disabledAt !== null)
      return refused(path, `There is no user ${typed} on this server.`);
    return ok(this.localResolved(user));
  }

  private localResolved(user: UserProfile): ResolvedActor {
    return {
      id: this.urls.actor(user.username),
      inbox: this.urls.inbox(user.username),
      sharedInbox: this.urls.sharedInbox(),
      alsoKnownAs: [...user.profile.alsoKnownAs],
      movedTo: user.move.movedTo,
      local: user.username,
    };
  }
}

/** Said of a failure for want of an answer: the person may try again. */
const later = (failure: { readonly retryable: boolean }): string =>
  failure.retryable ? ' (try again later)' : '';
