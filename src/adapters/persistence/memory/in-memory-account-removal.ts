import type {
  AccountRemoval,
  AccountRemovalOutcome,
  AccountRemovalPlan,
} from '../../../application/ports/account-removal.js';
import { documentDeliveryJob } from '../../../domain/jobs.js';
import { appendTo } from './in-memory-activity-log.js';
import { MemoryDatabase } from './memory-database.js';

/**
 * Checks the whole plan before the first change (the user is live, the Deletes start at the next idx, they name
 * exactly the user's live assets, every document serialises), then applies it without an await: one transaction.
 */
export class InMemoryAccountRemoval implements AccountRemoval {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async remove(plan: AccountRemovalPlan, now: Date): Promise<AccountRemovalOutcome> {
    this.db.assertOpen();
    const stored = this.db.users.get(plan.username);
    if (!stored || stored.user.deletedAt !== null) return 'gone';
    if (plan.assetDeletes.some(({ activity }, i) => activity.idx !== this.db.activities.length + i))
      return 'idx_taken';
    const live = [...this.db.assets.values()]
      .filter(({ asset }) => asset.owner === plan.username && asset.deletedAt === null)
      .map(({ asset }) => asset.name as string);
    const planned = new Set(plan.assetDeletes.map((d) => d.name as string));
    const exactlyTheLive =
      planned.size === plan.assetDeletes.length &&
      live.length === planned.size &&
      live.every((name) => planned.has(name));
    if (!exactlyTheLive) return 'assets_changed';
    for (const { activity } of plan.assetDeletes) JSON.stringify(activity.document);
    JSON.stringify(plan.actorDelete);

    stored.user = { ...stored.user, deletedAt: new Date(now) };
    this.db.deletedUsers++;
    this.db.revoke(plan.revocations, now);
    for (const { activity, name } of plan.assetDeletes) {
      const outcome = appendTo(this.db, activity, { kind: 'delete', name, deletedAt: activity.published });
      // Checked above, so any other outcome is a bug — and would leave half a removal.
      if (outcome !== 'appended') throw new Error(`account removal: the Delete of ${name} was ${outcome}`);
    }
    for (const inbox of this.db.deliveryInboxes(plan.username)) {
      this.db.insertJob(
        documentDeliveryJob({ signer: plan.username, inbox, document: plan.actorDelete }),
        now,
      );
    }
    return 'removed';
  }
}
