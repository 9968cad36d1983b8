import type { Database, Statement, Transaction } from 'better-sqlite3';
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
import { storeCall } from './sqlite-errors.js';

interface RuleRow {
  kind: DomainRuleKind;
  host: string;
  created_at: number;
}

const KINDS = FEDERATION_JOB_KINDS.map((kind) => `'${kind}'`).join(', ');

type Removals = Omit<BlockOutcome, 'added'>;

/** The rules in `domain_rules`; a block's removals run in the IMMEDIATE transaction that adds it. */
export class SqliteDomainRuleStore implements DomainRuleStore {
  private readonly insert: Statement<[DomainRuleKind, string, string, number]>;
  private readonly remove: Statement<[DomainRuleKind, string]>;
  private readonly all: Statement<[], RuleRow>;
  private readonly kindsOf: Statement<[string], { kind: DomainRuleKind }>;
  private readonly blockHosts: Transaction<
    (hosts: readonly RuleHost[], now: Date) => Removals & { added: number }
  >;

  constructor(db: Database) {
    this.insert = db.prepare(
      'INSERT INTO domain_rules (kind, host, host_key, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.remove = db.prepare('DELETE FROM domain_rules WHERE kind = ? AND host = ?');
    this.all = db.prepare('SELECT kind, host, created_at FROM domain_rules ORDER BY created_at, kind, host');
    this.kindsOf = db.prepare(
      'SELECT DISTINCT kind FROM domain_rules WHERE host_key IN (SELECT value FROM json_each(?))',
    );
    const removeFollowers = db.prepare<[string, string]>(
      'DELETE FROM followers WHERE host_key >= ? AND host_key < ?',
    );
    // Distinct lanes through jobs_pending_by_lane_kind: as many rows as hosts waiting, not as jobs.
    const pendingLanes = db.prepare<[], { lane: string | null }>(
      `SELECT DISTINCT lane FROM jobs WHERE state = 'pending' AND kind IN (${KINDS})`,
    );
    const dropLane = db.prepare<[string]>(
      `DELETE FROM jobs WHERE state = 'pending' AND lane = ? AND kind IN (${KINDS})`,
    );
    this.blockHosts = db.transaction((hosts: readonly RuleHost[], now: Date) => {
      let added = 0;
      let followersRemoved = 0;
      for (const host of hosts) {
        added += this.insert.run('block', host, hostKey(host), now.getTime()).changes;
        const { from, below } = ruleKeyRange(hostKey(host));
        followersRemoved += removeFollowers.run(from, below).changes;
      }
      const lanes = coveredLanes(
        pendingLanes.all().map((row) => row.lane),
        hosts,
      );
      let jobsDropped = 0;
      for (const lane of lanes) jobsDropped += dropLane.run(lane).changes;
      return { added, followersRemoved, jobsDropped };
    });
  }

  async block(host: RuleHost, now: Date): Promise<BlockOutcome> {
    const outcome = storeCall(() => this.blockHosts.immediate([host], now));
    return { ...outcome, added: outcome.added > 0 };
  }

  async blockMany(
    hosts: readonly RuleHost[],
    now: Date,
  ): Promise<{ added: number; already: number } & Removals> {
    const unique = [...new Set(hosts)];
    const outcome = storeCall(() => this.blockHosts.immediate(unique, now));
    return { ...outcome, already: unique.length - outcome.added };
  }

  async unblock(host: RuleHost): Promise<boolean> {
    return storeCall(() => this.remove.run('block', host)).changes > 0;
  }

  async allow(host: RuleHost, now: Date): Promise<boolean> {
    return storeCall(() => this.insert.run('allow', host, hostKey(host), now.getTime())).changes > 0;
  }

  async disallow(host: RuleHost): Promise<boolean> {
    return storeCall(() => this.remove.run('allow', host)).changes > 0;
  }

  async list(): Promise<DomainRule[]> {
    return storeCall(() => this.all.all()).map((row) => ({
      kind: row.kind,
      host: row.host as RuleHost,
      createdAt: new Date(row.created_at),
    }));
  }

  async covering(ruleKeys: readonly string[]): Promise<CoveringRules> {
    const kinds = new Set(storeCall(() => this.kindsOf.all(JSON.stringify(ruleKeys))).map((r) => r.kind));
    return { block: kinds.has('block'), allow: kinds.has('allow') };
  }
}
