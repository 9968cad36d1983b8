import type {
  AccountRemoval,
  AccountRemovalOutcome,
  AccountRemovalPlan,
} from '../../../application/ports/account-removal.js';
import { documentDeliveryJob } from '../../../domain/jobs.js';
import { appendIn } from './postgres-activity-log.js';
import type { PostgresDatabase } from './postgres-database.js';
import { deliveryInboxes } from './postgres-delivery-inboxes.js';
import { insertJobs } from './postgres-job-insert.js';
import { writeRevocations } from './postgres-revocation-store.js';
import { lockedTree } from './postgres-transparency-log.js';

/**
 * One transaction: the user marked deleted and taken out of the count, its tokens revoked, each asset Delete
 * appended through the activity log's own append (asset change, activity, hashes, deliveries), and the actor's Delete
 * queued for every follower inbox. Any refusal rolls all of it back. The tree's row is locked first, as every
 * append locks it first, so that this and an append never wait for each other's locks in opposite orders.
 */
export class PostgresAccountRemoval implements AccountRemoval {
  constructor(private readonly db: PostgresDatabase) {}

  async remove(plan: AccountRemovalPlan, now: Date): Promise<AccountRemovalOutcome> {
    return this.db.transaction<AccountRemovalOutcome>(async (tx, refuse) => {
      await lockedTree(tx);
      const { count } = await tx.query(
        'UPDATE users SET deleted_at = $1 WHERE username = $2 AND deleted_at IS NULL',
        [now, plan.username],
      );
      if (count !== 1) return refuse('gone');
      await tx.query("UPDATE counters SET value = value - 1 WHERE name = 'users'");
      const live = (
        await tx.query<{ name: string }>('SELECT name FROM assets WHERE owner = $1 AND deleted_at IS NULL', [
          plan.username,
        ])
      ).map((row) => row.name);
      const planned = new Set(plan.assetDeletes.map((d) => d.name as string));
      if (live.length !== planned.size || live.some((name) => !planned.has(name)))
        return refuse('assets_changed');
      await writeRevocations(tx, plan.revocations, now);
      for (const { activity, name } of plan.assetDeletes) {
        const outcome = await appendIn(tx, activity, { kind: 'delete', name, deletedAt: activity.published });
        if (outcome !== 'appended') return refuse(outcome === 'idx_taken' ? 'idx_taken' : 'assets_changed');
      }
      const inboxes = await deliveryInboxes(tx, plan.username);
      await insertJobs(
        tx,
        inboxes.map((inbox) =>
          documentDeliveryJob({ signer: plan.username, inbox, document: plan.actorDelete }),
        ),
        now,
      );
      return 'removed';
    });
  }
}
