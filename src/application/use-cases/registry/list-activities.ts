// Rule: the activity log is listed newest first — all of it, or one user's (their outbox).
import type { Activity } from '../../../domain/activity.js';
import type { Page } from '../../../domain/page.js';
import type { Username } from '../../../domain/user.js';
import { paginate, type CursorRequest } from '../../pagination.js';
import type { ActivityFilter, ActivityLog } from '../../ports/activity-log.js';

export class ListActivities {
  constructor(private readonly log: ActivityLog) {}

  execute(filter: { actor?: Username }, page: CursorRequest): Promise<Page<Activity>> {
    const f: ActivityFilter = filter;
    return paginate(page, {
      older: (before, limit) => this.log.listOlder(f, before, limit),
      newer: (after, limit) => this.log.listNewer(f, after, limit),
      count: () => this.log.count(f),
    });
  }
}
