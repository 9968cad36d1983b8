import type { Activity } from '../../domain/activity.js';
import type { Asset, AssetName } from '../../domain/asset.js';
import type { Username } from '../../domain/user.js';
import type { ProfileChange } from './user-repository.js';
import type { SeekableList } from './positioned.js';

export interface ActivityFilter {
  /** Only this user's activities (an outbox). */
  readonly actor?: Username;
}

/** The asset change an activity records; applied in the same transaction as the append. */
export type AssetChange = (
  | { readonly kind: 'create'; readonly asset: Asset }
  /**
   * Stores the asset's mutable fields (media type, url, description, alt text, sensitive, tags) and `updatedAt`;
   * the rest is fixed. Applied only while the stored asset still has `expectedUpdatedAt`, so concurrent edits cannot
   * lose each other.
   */
  | { readonly kind: 'update'; readonly asset: Asset; readonly expectedUpdatedAt: Date }
  | { readonly kind: 'delete'; readonly name: AssetName; readonly deletedAt: Date }
) & {
  /**
   * The owner's profile as the change leaves it, when the asset is its avatar, header or a pin (API.md §4.2):
   * written in the same transaction, as UserRepository.updateProfile writes one — or the whole append is refused
   * with `'profile_changed'`.
   */
  readonly profile?: ProfileChange;
};

export type AppendOutcome =
  | 'appended'
  /** Another writer appended at this idx first: rebuild the activity at the new next idx and try again. */
  | 'idx_taken'
  /** create: the name is registered (live or deleted). */
  | 'asset_exists'
  /** update/delete: the asset is no longer live (deleted meanwhile) or does not exist. */
  | 'asset_gone'
  /** update: the asset was changed by someone else since it was read; read it again and re-apply the edit. */
  | 'asset_changed'
  /** The owner's profile changed since it was read (its version moved): read it again and re-apply the edit. */
  | 'profile_changed';

/**
 * The global activity log: positions are `idx`, 0, 1, 2, … with no gap and no repeat, across processes and
 * restarts. Appending and the asset change it records are one transaction: neither exists without the other.
 */
export interface ActivityLog extends SeekableList<Activity, ActivityFilter> {
  /** The idx the next append must use (one more than the highest, 0 for an empty log). */
  nextIdx(): Promise<number>;
  /** The activity at `idx`, or null. */
  get(idx: number): Promise<Activity | null>;
  /**
   * Appends `activity` (whose idx must equal the current next idx), applies `change` and queues one
   * `activity_delivery` job per distinct delivery inbox of the actor's followers (queued at `published`), all in one
   * transaction: an activity in the log is always delivered, and nothing is delivered for one that is not. Nothing
   * is written unless the outcome is `'appended'`.
   */
  append(activity: Activity, change: AssetChange): Promise<AppendOutcome>;
}
