import type { MongoClient } from 'mongodb';
import type {
  AccountRemoval,
  AccountRemovalOutcome,
  AccountRemovalPlan,
} from '../../../application/ports/account-removal.js';
import type { AppendOutcome } from '../../../application/ports/activity-log.js';
import { documentDeliveryJob } from '../../../domain/jobs.js';
import type { MongoActivityLog } from './mongo-activity-log.js';
import { deliveryInboxesIn } from './mongo-delivery-inboxes.js';
import { liveAssetsMatching } from './mongo-asset-repository.js';
import { storeCall } from './mongo-errors.js';
import { jobDocument } from './mongo-job-document.js';
import { revokeIn } from './mongo-revocation-store.js';
import type { MongoCollections } from './mongo-schema.js';
import { addToCounter, transaction } from './mongo-transactions.js';

/**
 * One transaction: the user marked deleted and taken out of `live_users`, its tokens revoked, each asset Delete
 * appended through the activity log's own append (which moves the user's totals too), and the actor's Delete queued
 * for every follower inbox. Any refusal aborts all of it. Two removals of one user conflict on the user's document:
 * the one run again finds it deleted and answers 'gone'.
 */
export class MongoAccountRemoval implements AccountRemoval {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
    private readonly log: MongoActivityLog,
  ) {}

  async remove(plan: AccountRemovalPlan, now: Date): Promise<AccountRemovalOutcome> {
    const { users, assets, counters, followers, jobs } = this.collections;
    return storeCall(() =>
      transaction<AccountRemovalOutcome>(this.client, async (session, refuse) => {
        const marked = await users.updateOne(
          { _id: plan.username, deletedAt: null },
          { $set: { deletedAt: now } },
          { session },
        );
        if (marked.matchedCount !== 1) refuse('gone');
        await addToCounter(counters, 'live_users', -1, session);
        const live = await assets
          .find(liveAssetsMatching({ owner: plan.username }), { session, projection: { _id: 1 } })
          .toArray();
        const planned = new Set(plan.assetDeletes.map((d) => d.name as string));
        if (live.length !== planned.size || live.some((doc) => !planned.has(doc._id)))
          refuse('assets_changed');
        await revokeIn(this.collections, plan.revocations, now, session);
        const refuseAppend = (outcome: AppendOutcome): never =>
          refuse(outcome === 'idx_taken' ? 'idx_taken' : 'assets_changed');
        for (const { activity, name } of plan.assetDeletes) {
          await this.log.appendIn(
            session,
            activity,
            { kind: 'delete', name, deletedAt: activity.published },
            refuseAppend,
          );
        }
        const inboxes = await deliveryInboxesIn(followers, plan.username, session);
        if (inboxes.length > 0)
          await jobs.insertMany(
            inboxes.map((inbox) =>
              jobDocument(
                documentDeliveryJob({ signer: plan.username, inbox, document: plan.actorDelete }),
                now,
              ),
            ),
            { session },
          );
        return 'removed';
      }),
    );
  }
}
