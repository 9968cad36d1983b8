import type { AssetName } from './asset.js';
import type { Username } from './user.js';

export type ActivityType = 'Create' | 'Update' | 'Delete';

/** The activity that publishes each kind of registry edit. */
export const activityTypeOf = (kind: 'create' | 'update' | 'delete'): ActivityType =>
  kind === 'create' ? 'Create' : kind === 'update' ? 'Update' : 'Delete';

/** One entry of the global, append-only, gap-free activity log. */
export interface Activity {
  /** Position in the log: 0, 1, 2, … with no gap and no repeat. */
  readonly idx: number;
  readonly type: ActivityType;
  readonly actor: Username;
  readonly object: AssetName;
  readonly published: Date;
  /** The ActivityStreams document exactly as signed when the activity was created; served as-is. */
  readonly document: Record<string, unknown>;
}
