// Appending as the use cases will: read the next idx, build the activity at it, append, and start over when
// another writer took the idx. Shared by the contract suites and the SQLite worker processes.
import type { ActivityLog, AppendOutcome, AssetChange } from '../../src/application/ports/activity-log.js';
import type { Activity, ActivityType } from '../../src/domain/activity.js';
import type { Asset } from '../../src/domain/asset.js';
import type { Username } from '../../src/domain/user.js';
import { anActivity, aUsername } from './builders.js';

const TYPE_OF: Record<AssetChange['kind'], ActivityType> = {
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
};

/** The activity recording `change` at `idx`: by the asset's owner (alice for a delete unless `actor` says). */
export function activityFor(change: AssetChange, idx: number, actor?: Username): Activity {
  return change.kind === 'delete'
    ? anActivity({ idx, type: 'Delete', actor: actor ?? aUsername('alice'), object: change.name })
    : anActivity({ idx, type: TYPE_OF[change.kind], actor: change.asset.owner, object: change.asset.name });
}

export interface Appended {
  readonly outcome: AppendOutcome;
  /** The idx of the last attempt. */
  readonly idx: number;
  /** How many attempts found their idx taken. */
  readonly retries: number;
}

export interface RetryOptions {
  /** Acts the activity for a user other than the asset's owner (deletes are alice's otherwise). */
  readonly actor?: Username;
  /** Runs between reading the next idx and appending, as signing the activity would; widens the race window. */
  readonly beforeAppend?: () => Promise<void>;
}

/** Appends `change` at the next idx, retrying for as long as other writers take it first. */
export async function appendWithRetry(
  log: ActivityLog,
  change: AssetChange,
  options: RetryOptions = {},
): Promise<Appended> {
  for (let retries = 0; ; retries++) {
    const idx = await log.nextIdx();
    const activity = activityFor(change, idx, options.actor);
    await options.beforeAppend?.();
    const outcome = await log.append(activity, change);
    if (outcome !== 'idx_taken') return { outcome, idx, retries };
  }
}

/** Registers each asset in turn (a Create each), failing on anything but 'appended'; returns the idx of each. */
export async function registerAssets(log: ActivityLog, assets: readonly Asset[]): Promise<number[]> {
  const indexes: number[] = [];
  for (const asset of assets) {
    const { outcome, idx } = await appendWithRetry(log, { kind: 'create', asset });
    if (outcome !== 'appended') throw new Error(`Registering ${asset.name} answered ${outcome}.`);
    indexes.push(idx);
  }
  return indexes;
}
