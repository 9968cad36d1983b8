import type { Activity } from '../../domain/activity.js';
import type { AssetName } from '../../domain/asset.js';
import type { Revocation } from '../../domain/revocation.js';
import type { Username } from '../../domain/user.js';

/** Everything deleting an account writes, prepared (and signed) beforehand. */
export interface AccountRemovalPlan {
  readonly username: Username;
  /** Every live token of the user; notices are queued for the new revocations of scoped ones. */
  readonly revocations: readonly Revocation[];
  /**
   * A signed Delete for each of the user's live assets, at consecutive idx from the log's next idx — exactly the
   * assets live when the plan is written, no more, no fewer.
   */
  readonly assetDeletes: readonly { readonly activity: Activity; readonly name: AssetName }[];
  /** The Delete of the actor, queued for each distinct inbox of the user's followers (after the asset Deletes). */
  readonly actorDelete: Record<string, unknown>;
}

export type AccountRemovalOutcome =
  | 'removed'
  /** Another writer appended at the plan's idx: build the Deletes again at the new next idx. */
  | 'idx_taken'
  /** The user's live assets are no longer the plan's: read them again. */
  | 'assets_changed'
  /** There is no live user of that name (deleted meanwhile). */
  | 'gone';

/** Deleting an account: one transaction across users, tokens, the registry, the activity log and the queue. */
export interface AccountRemoval {
  /**
   * In one transaction: marks the user deleted at `now`, records the revocations (with notices), appends each asset
   * Delete with its asset change and its deliveries (as ActivityLog.append does), and queues the actor's Delete.
   * Nothing is written unless the outcome is `'removed'`.
   */
  remove(plan: AccountRemovalPlan, now: Date): Promise<AccountRemovalOutcome>;
}
