// Rule: any activity can be read by its idx, exactly as it was signed. A pass-through kept on purpose: the edges
// reach the store only through use-cases, so swapping a store never touches a route.
import type { Activity } from '../../../domain/activity.js';
import type { ActivityLog } from '../../ports/activity-log.js';

export class GetActivity {
  constructor(private readonly log: ActivityLog) {}

  /** Null when no activity has this idx. */
  execute(idx: number): Promise<Activity | null> {
    return this.log.get(idx);
  }
}
