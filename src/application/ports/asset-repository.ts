import type { Asset, AssetName } from '../../domain/asset.js';
import type { Username } from '../../domain/user.js';
import type { SeekableList } from './positioned.js';

export interface AssetFilter {
  readonly owner?: Username;
  /** Case-sensitive name prefix. */
  readonly namePrefix?: string;
  /** Assets carrying this tag, compared case-insensitively (`Art` finds `art`). */
  readonly tag?: string;
}

/**
 * Reads of the asset registry. Lists and counts include live assets only; positions are registration order.
 * Writes go through {@link ActivityLog.append}, so an asset never changes without its activity.
 */
export interface AssetRepository extends SeekableList<Asset, AssetFilter> {
  /** The asset with this name, deleted or not; null when the name was never registered. */
  findByName(name: AssetName): Promise<Asset | null>;
}
