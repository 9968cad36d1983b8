import type { ClientSession, MongoClient } from 'mongodb';
import {
  FEDERATION_JOB_KINDS,
  type BlockOutcome,
  type CoveringRules,
  type DomainRuleStore,
} from '../../../application/ports/domain-rule-store.js';
import {
  hostKey,
  ruleKeyRange,
  type DomainRule,
  type DomainRuleKind,
  type RuleHost,
} from '../../../domain/domain-rules.js';
import { coveredLanes } from '../domain-rule-records.js';
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import type { MongoCollections } from './mongo-schema.js';
import { transaction } from './mongo-transactions.js';
import { addToUserCount } from './mongo-user-counts.js';

type Removals = Omit<BlockOutcome, 'added'>;

/**
 * The rules in `domain_rules`, unique by (kind, host); a block's removals run in the transaction that adds it, and
 * take the followers removed from each user's total.
 */
export class MongoDomainRuleStore implements DomainRuleStore {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async block(host: RuleHost, now: Date): Promise<BlockOutcome> {
    const { added, ...removed } = await this.blockAll([host], now);
    return { added: added > 0, ...removed };
  }

  async blockMany(hosts: readonly RuleHost[], now: Date) {
    const unique = [...new Set(hosts)];
    const outcome = await this.blockAll(unique, now);
    return { ...outcome, already: unique.length - outcome.added };
  }

  async unblock(host: RuleHost): Promise<boolean> {
    return this.remove('block', host);
  }

  async allow(host: RuleHost, now: Date): Promise<boolean> {
    return storeCall(() => this.add('allow', host, now));
  }

  async disallow(host: RuleHost): Promise<boolean> {
    return this.remove('allow', host);
  }

  async list(): Promise<DomainRule[]> {
    const docs = await storeCall(() =>
      this.collections.domainRules.find({}, { sort: { createdAt: 1, kind: 1, host: 1 } }).toArray(),
    );
    return docs.map((doc) => ({ kind: doc.kind, host: doc.host as RuleHost, createdAt: doc.createdAt }));
  }

  async covering(ruleKeys: readonly string[]): Promise<CoveringRules> {
    const kinds = await storeCall(() =>
      this.collections.domainRules.distinct('kind', { hostKey: { $in: [...ruleKeys] } }),
    );
    return { block: kinds.includes('block'), allow: kinds.includes('allow') };
  }

  private async remove(kind: DomainRuleKind, host: RuleHost): Promise<boolean> {
    const { deletedCount } = await storeCall(() => this.collections.domainRules.deleteOne({ kind, host }));
    return deletedCount > 0;
  }

  /** Adds a rule; false when it was there (a unique index on (kind, host) settles a race). */
  private async add(kind: DomainRuleKind, host: RuleHost, now: Date, session?: ClientSession) {
    try {
      const { upsertedCount } = await this.collections.domainRules.updateOne(
        { kind, host },
        { $setOnInsert: { kind, host, hostKey: hostKey(host), createdAt: now } },
        { upsert: true, session },
      );
      return upsertedCount > 0;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  private blockAll(hosts: readonly RuleHost[], now: Date): Promise<Removals & { added: number }> {
    const { followers, jobs, userCounts } = this.collections;
    return storeCall(() =>
      transaction(this.client, async (session) => {
        let added = 0;
        for (const host of hosts) if (await this.add('block', host, now, session)) added++;
        const ranges = hosts.map((host) => ruleKeyRange(hostKey(host)));
        const covered = { $or: ranges.map((r) => ({ hostKey: { $gte: r.from, $lt: r.below } })) };
        const ending = await followers
          .find(covered, { session, projection: { _id: 1, username: 1 } })
          .toArray();
        if (ending.length > 0) {
          await followers.deleteMany({ _id: { $in: ending.map((doc) => doc._id) } }, { session });
          const byUser = new Map<string, number>();
          for (const { username } of ending) byUser.set(username, (byUser.get(username) ?? 0) + 1);
          for (const [username, n] of byUser)
            await addToUserCount(userCounts, username, 'followers', -n, session);
        }
        const kinds = { $in: [...FEDERATION_JOB_KINDS] as string[] };
        const waiting = await jobs.distinct('lane', { state: 'pending', kind: kinds }, { session });
        const lanes = coveredLanes(
          waiting.map((lane) => lane ?? null),
          hosts,
        );
        const dropped =
          lanes.length === 0
            ? 0
            : (await jobs.deleteMany({ state: 'pending', kind: kinds, lane: { $in: lanes } }, { session }))
                .deletedCount;
        return { added, followersRemoved: ending.length, jobsDropped: dropped };
      }),
    );
  }
}
