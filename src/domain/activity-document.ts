// The documents of the global activity log: a Create, Update or Delete of an asset, signed when it is appended.
import type { ActivityType } from './activity.js';
import { ACTIVITY_CONTEXT, PUBLIC_AUDIENCE, type Urls } from './activity-streams.js';
import type { Asset } from './asset.js';
import { assetNote } from './asset-note.js';

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
    object: type === 'Delete' ? tombstoneObject(asset, urls, published) : assetNote(asset, urls),
  };
}
