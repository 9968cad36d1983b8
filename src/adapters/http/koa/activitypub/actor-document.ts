import { AS_CONTEXT, SECURITY_CONTEXT, type Urls } from '../../../../domain/activity-streams.js';
import type { UserProfile } from '../../../../domain/user.js';

/**
 * The ActivityPub actor of a user, shaped as Mastodon's own (API.md §4): the AS context string first, the
 * security context for `publicKey`, and every extra term defined inline.
 */
export function actorDocument(user: UserProfile, urls: Urls): Record<string, unknown> {
  const id = urls.actor(user.username);
  return {
    '@context': [
      AS_CONTEXT,
      SECURITY_CONTEXT,
      {
        manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
        toot: 'http://joinmastodon.org/ns#',
        discoverable: 'toot:discoverable',
      },
    ],
    id,
    type: 'Person',
    preferredUsername: user.username,
    name: user.username,
    url: id,
    inbox: urls.inbox(user.username),
    outbox: urls.outbox(user.username),
    followers: urls.followers(user.username),
    following: urls.following(user.username),
    endpoints: { sharedInbox: urls.sharedInbox() },
    published: user.createdAt.toISOString(),
    manuallyApprovesFollowers: false,
    discoverable: true,
    publicKey: { id: urls.keyId(user.username), owner: id, publicKeyPem: user.publicKeyPem },
  };
}
