// The registry's JSON answers (API.md §3–4): assets, activities and the pages of their lists (the ActivityStreams
// forms are the domain's documents). Each is typed by the schema of registry-schemas.ts that /openapi.json
// publishes for it.
import type { Activity } from '../../../../domain/activity.js';
import type { Urls } from '../../../../domain/activity-streams.js';
import type { Asset } from '../../../../domain/asset.js';
import type { Page } from '../../../../domain/page.js';
import type * as registry from '../registry-schemas.js';
import type { listOf } from '../schemas.js';
import type { Presented } from './presented.js';

export type AssetJson = Presented<typeof registry.Asset>;
export type ActivityJson = Presented<typeof registry.Activity>;

export const assetJson = (asset: Asset, urls: Urls): AssetJson => {
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

export const activityJson = (activity: Activity, urls: Urls): ActivityJson => ({
  idx: activity.idx,
  type: activity.type,
  actor: activity.actor,
  object: activity.object,
  published: activity.published.toISOString(),
  id: urls.activity(activity.idx),
});

/** A write's answer (POST /assets, PATCH /assets/{name}): the asset, and the activity that recorded it. */
export const assetWithActivityJson = (
  asset: Asset,
  activity: Activity,
  urls: Urls,
): Presented<typeof registry.AssetWithActivity> => ({
  ...assetJson(asset, urls),
  activity: { idx: activity.idx, id: urls.activity(activity.idx) },
});

/** DELETE /assets/{name}: the Delete that recorded it. */
export const deletedAssetJson = (
  activity: Activity,
  urls: Urls,
): Presented<typeof registry.DeletedAsset> => ({ activity: activityJson(activity, urls) });

/** A list page of `J` (API.md §0), as listOf describes it. */
type ListJson<J> = Omit<Presented<ReturnType<typeof listOf>>, 'items'> & { readonly items: readonly J[] };

/** The shared list shape: items, total, and absolute next/prev links that keep the request's other parameters. */
export function listJson<T, J>(
  page: Page<T>,
  toJson: (item: T) => J,
  link: (cursor: Record<string, string>) => string,
): ListJson<J> {
  return {
    items: page.items.map(toJson),
    total: page.total,
    next: page.nextCursor === null ? null : link({ before: String(page.nextCursor) }),
    prev: page.prevCursor === null ? null : link({ after: String(page.prevCursor) }),
  };
}

/** GET /registry, GET /tags/{tag}: a page of live assets. */
export const assetListJson = (
  page: Page<Asset>,
  urls: Urls,
  link: (cursor: Record<string, string>) => string,
): Presented<typeof registry.AssetList> => listJson(page, (asset) => assetJson(asset, urls), link);

/** GET /activities: a page of the log. */
export const activityListJson = (
  page: Page<Activity>,
  urls: Urls,
  link: (cursor: Record<string, string>) => string,
): Presented<typeof registry.ActivityList> =>
  listJson(page, (activity) => activityJson(activity, urls), link);
