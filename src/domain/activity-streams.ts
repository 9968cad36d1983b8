import type { ActivityType } from './activity.js';
import { objectTypeFor, type Asset } from './asset.js';
import { USERNAME_PATTERN } from './user.js';

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_CONTEXT = 'https://w3id.org/security/v1';
export const PUBLIC_AUDIENCE = 'https://www.w3.org/ns/activitystreams#Public';

/** Every term an activity uses is defined here, so canonicalisation signs all of it (API.md §4). */
export const ACTIVITY_CONTEXT = [AS_CONTEXT, SECURITY_CONTEXT, { Hashtag: 'as:Hashtag' }];

/** The URLs of one service, all derived from PUBLIC_URL. */
export class Urls {
  constructor(readonly base: string) {}
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
  asset = (name: string) => `${this.base}/assets/${encodeURIComponent(name)}`;
  activity = (idx: number) => `${this.base}/activities/${idx}`;
}

/** Text shown by peers as HTML: escaped, so a description is always shown as the text it is. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
  );
}

/** The ActivityStreams object for a live asset. */
export function assetObject(asset: Asset, urls: Urls): Record<string, unknown> {
  return {
    id: urls.asset(asset.name),
    type: objectTypeFor(asset.mediaType),
    name: asset.name,
    attributedTo: urls.actor(asset.owner),
    mediaType: asset.mediaType,
    ...(asset.url ? { url: asset.url } : {}),
    content: escapeHtml(asset.description),
    published: asset.createdAt.toISOString(),
    ...(asset.updatedAt.getTime() !== asset.createdAt.getTime()
      ? { updated: asset.updatedAt.toISOString() }
      : {}),
    tag: asset.tags.map((tag) => ({ type: 'Hashtag', name: `#${tag}` })),
  };
}

/**
 * What a deleted asset's URL shows, and what a Delete carries. No `formerType`: the AS context makes it a link,
 * so a bare "Document" would be a relative IRI that safe-mode canonicalisation refuses (Mastodon omits it too).
 */
export function tombstoneObject(asset: Asset, urls: Urls, deletedAt: Date): Record<string, unknown> {
  return { id: urls.asset(asset.name), type: 'Tombstone', deleted: deletedAt.toISOString() };
}

/** The unsigned document of an activity about an asset; the signer adds `signature`. */
export function activityDocument(input: {
  idx: number;
  type: ActivityType;
  asset: Asset;
  published: Date;
  urls: Urls;
}): Record<string, unknown> {
  const { idx, type, asset, published, urls } = input;
  return {
    '@context': ACTIVITY_CONTEXT,
    id: urls.activity(idx),
    type,
    actor: urls.actor(asset.owner),
    published: published.toISOString(),
    to: [PUBLIC_AUDIENCE],
    cc: [urls.followers(asset.owner)],
    object: type === 'Delete' ? tombstoneObject(asset, urls, published) : assetObject(asset, urls),
  };
}
