import {
  FEDERATION_JOB_KINDS,
  type BlockOutcome,
  type CoveringRules,
  type DomainRuleStore,
} from '../../../application/ports/domain-rule-store.js';
import {
  hostKey,
  hostKeyOfUrl,
  ruleCovers,
  type DomainRule,
  type DomainRuleKind,
  type RuleHost,
} from '../../../domain/domain-rules.js';
import { coveredLanes } from '../domain-rule-records.js';
import { MemoryDatabase } from './memory-database.js';

const FEDERATION_KINDS: ReadonlySet<string> = new Set(FEDERATION_JOB_KINDS);

/** A rule's key in MemoryDatabase.domainRules. */
export const keyOf = (kind: DomainRuleKind, host: RuleHost): string => `${kind} ${host}`;

/** Whether a block rule covers the host of `actor`: what a follower's add checks in its own write. */
export function blockedActor(db: MemoryDatabase, actor: string): boolean {
  const key = hostKeyOfUrl(actor);
  if (key === null) return false;
  for (const rule of db.domainRules.values())
    if (rule.kind === 'block' && ruleCovers(hostKey(rule.host), key)) return true;
  return false;
}

export class InMemoryDomainRuleStore implements DomainRuleStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async block(host: RuleHost, now: Date): Promise<BlockOutcome> {
    const { added, ...removed } = this.blockAll([host], now);
    return { added: added > 0, ...removed };
  }

  async blockMany(hosts: readonly RuleHost[], now: Date) {
    const unique = [...new Set(hosts)];
    const outcome = this.blockAll(unique, now);
    return { ...outcome, already: unique.length - outcome.added };
  }

  async unblock(host: RuleHost): Promise<boolean> {
    this.db.assertOpen();
    return this.db.domainRules.delete(keyOf('block', host));
  }

  async allow(host: RuleHost, now: Date): Promise<boolean> {
    this.db.assertOpen();
    return this.add('allow', host, now);
  }

  async disallow(host: RuleHost): Promise<boolean> {
    this.db.assertOpen();
    return this.db.domainRules.delete(keyOf('allow', host));
  }

  async list(): Promise<DomainRule[]> {
    this.db.assertOpen();
    return [...this.db.domainRules.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  async covering(ruleKeys: readonly string[]): Promise<CoveringRules> {
    this.db.assertOpen();
    const found = { block: false, allow: false };
    for (const rule of this.db.domainRules.values())
      if (ruleKeys.includes(hostKey(rule.host))) found[rule.kind] = true;
    return found;
  }

  private add(kind: DomainRuleKind, host: RuleHost, now: Date): boolean {
    const key = keyOf(kind, host);
    if (this.db.domainRules.has(key)) return false;
    this.db.domainRules.set(key, { kind, host, createdAt: new Date(now.getTime()) });
    return true;
  }

  private blockAll(hosts: readonly RuleHost[], now: Date) {
    this.db.assertOpen();
    const added = hosts.filter((host) => this.add('block', host, now)).length;
    const ruleKeys = hosts.map(hostKey);
    const followersRemoved = this.db.removeFollowers((_username, follower) => {
      const key = hostKeyOfUrl(follower.actor);
      return key !== null && ruleKeys.some((ruleKey) => ruleCovers(ruleKey, key));
    });
    // Their follow requests go too (API.md §4.3), uncounted: no notice is sent for either.
    this.db.followRequests = this.db.followRequests.filter((stored) => {
      const key = hostKeyOfUrl(stored.request.actor);
      return !(key !== null && ruleKeys.some((ruleKey) => ruleCovers(ruleKey, key)));
    });
    const federationJobs = [...this.db.jobs.values()].filter(
      (job) => job.state === 'pending' && FEDERATION_KINDS.has(job.kind),
    );
    const lanes = new Set(coveredLanes([...new Set(federationJobs.map((job) => job.lane))], hosts));
    let jobsDropped = 0;
    for (const job of federationJobs)
      if (job.lane !== null && lanes.has(job.lane)) {
        this.db.jobs.delete(job.id);
        jobsDropped++;
      }
    return { added, followersRemoved, jobsDropped };
  }
}
