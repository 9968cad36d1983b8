import type { Activity } from '../../../domain/activity.js';
import type { Page } from '../../../domain/page.js';
import type { Urls } from '../../../domain/activity-streams.js';
import type { Asset } from '../../../domain/asset.js';
import type { UserProfile } from '../../../domain/user.js';

/** The plain JSON forms of API.md §3–4 (the ActivityStreams forms live in activitypub/). */
export const assetJson = (asset: Asset, urls: Urls) => {
  const { name, owner, url, description } = asset;
  return {
    name,
    owner,
    content_hash: asset.contentHash,
    media_type: asset.mediaType,
    url,
    description,
    alt_text: asset.altText,
    sensitive: asset.sensitive,
    tags: [...asset.tags],
    created_at: asset.createdAt.toISOString(),
    updated_at: asset.updatedAt.toISOString(),
    id: urls.asset(name),
  };
};

export const activityJson = (activity: Activity, urls: Urls) => ({
  idx: activity.idx,
  type: activity.type,
  actor: activity.actor,
  object: activity.object,
  published: activity.published.toISOString(),
  id: urls.activity(activity.idx),
});

export const userJson = (user: UserProfile, urls: Urls) => ({
  username: user.username,
  actor: urls.actor(user.username),
  created_at: user.createdAt.toISOString(),
});

/** One user (GET /users/{u}): the list's fields and the profile (API.md §4.2). */
export const userWithProfileJson = (user: UserProfile, urls: Urls) => {
  const { profile } = user;
  return {
    ...userJson(user, urls),
    display_name: profile.displayName,
    bio: profile.bio,
    avatar: profile.avatar,
    header: profile.header,
    fields: profile.fields.map(({ name, value }) => ({ name, value })),
    pinned: [...profile.pinned],
    indexable: profile.indexable,
  };
};

/** The shared list shape: items, total, and absolute next/prev links that keep the request's other parameters. */
export function listJson<T, J>(
  page: Page<T>,
  toJson: (item: T) => J,
  link: (cursor: Record<string, string>) => string,
) {
  return {
    items: page.items.map(toJson),
    total: page.total,
    next: page.nextCursor === null ? null : link({ before: String(page.nextCursor) }),
    prev: page.prevCursor === null ? null : link({ after: String(page.prevCursor) }),
  };
}
