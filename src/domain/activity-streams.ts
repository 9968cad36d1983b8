import { publicAddress, type PublicAddress } from './public-address.js';
import { USERNAME_PATTERN } from './user.js';

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_CONTEXT = 'https://w3id.org/security/v1';
export const PUBLIC_AUDIENCE = 'https://www.w3.org/ns/activitystreams#Public';

export { escapeHtml } from './html-text.js';

/**
 * Every term a signed document uses — activities, the actor and its `Update` — is defined here, with Mastodon's own
 * definitions, so that canonicalisation (in safe mode) signs all of it (API.md §4.1). Activities already in the log
 * keep the context they were signed with.
 */
export const ACTIVITY_CONTEXT = [
  AS_CONTEXT,
  SECURITY_CONTEXT,
  {
    Hashtag: 'as:Hashtag',
    sensitive: 'as:sensitive',
    digestMultibase: 'https://w3id.org/security#digestMultibase',
    manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
    toot: 'http://joinmastodon.org/ns#',
    featured: { '@id': 'toot:featured', '@type': '@id' },
    discoverable: 'toot:discoverable',
    indexable: 'toot:indexable',
    schema: 'http://schema.org#',
    PropertyValue: 'schema:PropertyValue',
    value: 'schema:value',
  },
];

/**
 * The context of the actor and of its `Update`: the activities' context (kept byte-for-byte for them: the log holds
 * their signed bytes) and the two terms of a move (API.md §4.3), as Mastodon defines them, so that canonicalisation
 * in safe mode signs them too.
 */
export const ACTOR_CONTEXT = [
  AS_CONTEXT,
  SECURITY_CONTEXT,
  {
    ...(ACTIVITY_CONTEXT[2] as Record<string, unknown>),
    alsoKnownAs: { '@id': 'as:alsoKnownAs', '@type': '@id' },
    movedTo: { '@id': 'as:movedTo', '@type': '@id' },
  },
];

/** The URLs of one service, all derived from PUBLIC_URL. */
export class Urls {
  /** PUBLIC_URL without a trailing slash: what every URL here starts with. */
  readonly base: string;
  constructor(readonly address: PublicAddress) {
    this.base = address.url;
  }
  /** The URLs of the service at `url` (tests, tools: the service itself builds them from its configuration). */
  static of(url: string): Urls {
    return new Urls(publicAddress(url));
  }
  actor = (username: string) => `${this.base}/users/${username}`;
  keyId = (username: string) => `${this.actor(username)}#main-key`;
  inbox = (username: string) => `${this.actor(username)}/inbox`;
  outbox = (username: string) => `${this.actor(username)}/outbox`;
  followers = (username: string) => `${this.actor(username)}/followers`;
  following = (username: string) => `${this.actor(username)}/following`;
  sharedInbox = () => `${this.base}/inbox`;
  /** The service's own actor, which signs the GETs it makes (servers in authorized-fetch mode require them). */
  instanceActor = () => `${this.base}/actor`;
  instanceKeyId = () => `${this.instanceActor()}#main-key`;
  /** The username in a local actor id (`<base>/users/<u>`, exactly), or null for any other URL. */
  usernameOf = (actorId: string): string | null => {
    const prefix = `${this.base}/users/`;
    if (!actorId.startsWith(prefix)) return null;
    const rest = actorId.slice(prefix.length);
    return USERNAME_PATTERN.test(rest) ? rest : null;
  };
  featured = (username: string) => `${this.actor(username)}/featured`;
  asset = (name: string) => `${this.base}/assets/${encodeURIComponent(name)}`;
  activity = (idx: number) => `${this.base}/activities/${idx}`;
  /** The page of one hashtag: its live assets. */
  tag = (tag: string) => `${this.base}/tags/${encodeURIComponent(tag)}`;
}
