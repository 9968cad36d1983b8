import type { Database, Transaction } from 'better-sqlite3';
import type {
  AccountRemoval,
  AccountRemovalOutcome,
  AccountRemovalPlan,
} from '../../../application/ports/account-removal.js';
import { documentDeliveryJob } from '../../../domain/jobs.js';
import { prepareJobInsert } from './job-insert.js';
import type { SqliteActivityLog } from './sqlite-activity-log.js';
import { prepareDeliveryInboxes } from './sqlite-delivery-inboxes.js';
import { storeCall } from './sqlite-errors.js';
import { prepareRevocationWrite } from './sqlite-revocation-store.js';

/** Thrown inside the transaction to roll all of it back and answer an outcome. */
class Refusal extends Error {
  constructor(readonly outcome: AccountRemovalOutcome) {
    super(outcome);
  }
}

/**
 * One IMMEDIATE transaction: the user marked deleted and taken out of the count, its tokens revoked, each asset
 * Delete appended through the activity log's own append (a savepoint: asset change, activity, deliveries), and the
 * actor's Delete queued for every follower inbox. Any refusal rolls all of it back.
 */
export class SqliteAccountRemoval implements AccountRemoval {
  private readonly removal: Transaction<(plan: AccountRemovalPlan, now: Date) => AccountRemovalOutcome>;

  constructor(db: Database, log: SqliteActivityLog) {
    const markDeleted = db.prepare<[number, string]>(
      'UPDATE users SET deleted_at = ? WHERE username = ? AND deleted_at IS NULL',
    );
    const uncount = db.prepare("UPDATE counters SET value = value - 1 WHERE name = 'users'");
    const liveAssets = db.prepare<[string], { name: string }>(
      'SELECT name FROM assets WHERE owner = ? AND deleted_at IS NULL',
    );
    const revoke = prepareRevocationWrite(db);
    const inboxes = prepareDeliveryInboxes(db);
    const insertJob = prepareJobInsert(db);

    this.removal = db.transaction((plan: AccountRemovalPlan, now: Date) => {
      if (markDeleted.run(now.getTime(), plan.username).changes !== 1) throw new Refusal('gone');
      uncount.run();
      const live = liveAssets.all(plan.username).map((row) => row.name);
      const planned = new Set(plan.assetDeletes.map((d) => d.name as string));
      if (live.length !== planned.size || live.some((name) => !planned.has(name)))
        throw new Refusal('assets_changed');
      revoke(plan.revocations, now);
      for (const { activity, name } of plan.assetDeletes) {
        const outcome = log.appendWithin(activity, { kind: 'delete', name, deletedAt: activity.published });
        if (outcome !== 'appended')
          throw new Refusal(outcome === 'idx_taken' ? 'idx_taken' : 'assets_changed');
      }
      for (const inbox of inboxes(plan.username))
        insertJob(documentDeliveryJob({ signer: plan.username, inbox, document: plan.actorDelete }), now);
      return 'removed';
    });
  }

  async remove(plan: AccountRemovalPlan, now: Date): Promise<AccountRemovalOutcome> {
    try {
      return storeCall(() => this.removal.immediate(plan, now));
    } catch (error) {
      if (error instanceof Refusal) return error.outcome;
      throw error;
    }
  }
}
