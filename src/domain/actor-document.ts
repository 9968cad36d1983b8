// A user as an ActivityPub actor (API.md §4, §4.2): the account, its key, and its profile — display name, bio,
// avatar, header, fields, pinned assets — in the shape Mastodon's own actors have, every term defined in the
// signed context. The same document is the object of the `Update` delivered when it changes.
import { ACTIVITY_CONTEXT, PUBLIC_AUDIENCE, type Urls } from './activity-streams.js';
import type { Asset } from './asset.js';
import { altTextOf, assetNote } from './asset-note.js';
import { paragraphsHtml, valueHtml } from './html-text.js';
import type { UserProfile } from './user.js';

/** A link in a profile: to the person's own pages, which Mastodon verifies (`rel="me"`), and no endorsement. */
const PROFILE_LINK = 'me nofollow noopener';
/** A link in a bio. */
const BIO_LINK = 'nofollow noopener';

/** What an actor document shows of a user: the account, and its profile's pictures as the assets they are. */
export interface ActorView {
  readonly user: UserProfile;
  /** The profile's avatar and header, as stored (null when the profile names none). */
  readonly avatar: Asset | null;
  readonly header: Asset | null;
}

/** A profile picture: the picture asset's file, its media type and its alt text. */
const pictureOf = (asset: Asset) => ({
  type: 'Image',
  mediaType: asset.mediaType,
  url: asset.url,
  name: altTextOf(asset),
});

/** The actor, without its `@context` (added by the documents that carry it). */
function actorObject({ user, avatar, header }: ActorView, urls: Urls): Record<string, unknown> {
  const id = urls.actor(user.username);
  const { profile } = user;
  return {
    id,
    type: 'Person',
    preferredUsername: user.username,
    name: profile.displayName ?? user.username,
    url: id,
    inbox: urls.inbox(user.username),
    outbox: urls.outbox(user.username),
    followers: urls.followers(user.username),
    following: urls.following(user.username),
    featured: urls.featured(user.username),
    endpoints: { sharedInbox: urls.sharedInbox() },
    published: user.createdAt.toISOString(),
    manuallyApprovesFollowers: profile.manuallyApprovesFollowers,
    discoverable: true,
    indexable: profile.indexable,
    ...(profile.bio !== null ? { summary: paragraphsHtml(profile.bio, BIO_LINK) } : {}),
    ...(avatar ? { icon: pictureOf(avatar) } : {}),
    ...(header ? { image: pictureOf(header) } : {}),
    ...(profile.fields.length > 0
      ? {
          attachment: profile.fields.map((field) => ({
            type: 'PropertyValue',
            name: field.name,
            value: valueHtml(field.value, PROFILE_LINK),
          })),
        }
      : {}),
    publicKey: { id: urls.keyId(user.username), owner: id, publicKeyPem: user.publicKeyPem },
  };
}

/** The AP form of `/users/{u}`. */
export function actorDocument(view: ActorView, urls: Urls): Record<string, unknown> {
  return { '@context': ACTIVITY_CONTEXT, ...actorObject(view, urls) };
}

/**
 * The unsigned `Update` of a profile: the whole actor as it now is, to the public and the followers. Its id names
 * the change (`#updates/<n>`), so every change is a new activity; profile updates are not entries of the log.
 */
export function profileUpdateDocument(view: ActorView, urls: Urls): Record<string, unknown> {
  const actor = urls.actor(view.user.username);
  return {
    '@context': ACTIVITY_CONTEXT,
    id: `${actor}#updates/${view.user.profileVersion}`,
    type: 'Update',
    actor,
    to: [PUBLIC_AUDIENCE],
    cc: [urls.followers(view.user.username)],
    object: actorObject(view, urls),
  };
}

/** The AP form of `/users/{u}/featured`: the pinned assets' Notes, inline, in order (Mastodon shows them pinned). */
export function featuredCollection(
  username: string,
  pinned: readonly Asset[],
  urls: Urls,
): Record<string, unknown> {
  return {
    '@context': ACTIVITY_CONTEXT,
    id: urls.featured(username),
    type: 'OrderedCollection',
    totalItems: pinned.length,
    orderedItems: pinned.map((asset) => assetNote(asset, urls)),
  };
}
