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
import type { PostgresDatabase } from './postgres-database.js';
import type { Queryable } from './postgres-sql.js';

const INSERT = `INSERT INTO domain_rules (kind, host, host_key, created_at)
  SELECT $1, host, key, $4 FROM unnest($2::text[], $3::text[]) AS r(host, key)
  ON CONFLICT DO NOTHING`;

type Removals = Omit<BlockOutcome, 'added'>;

/** The rules in `domain_rules`; a block's removals run in the transaction that adds it. */
export class PostgresDomainRuleStore implements DomainRuleStore {
  constructor(private readonly db: PostgresDatabase) {}

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
    return (
      (await this.db.query("DELETE FROM domain_rules WHERE kind = 'block' AND host = $1", [host])).count > 0
    );
  }

  async allow(host: RuleHost, now: Date): Promise<boolean> {
    return (await insertRules(this.db, 'allow', [host], now)) > 0;
  }

  async disallow(host: RuleHost): Promise<boolean> {
    return (
      (await this.db.query("DELETE FROM domain_rules WHERE kind = 'allow' AND host = $1", [host])).count > 0
    );
  }

  async list(): Promise<DomainRule[]> {
    const rows = await this.db.query<{ kind: DomainRuleKind; host: string; created_at: Date }>(
      'SELECT kind, host, created_at FROM domain_rules ORDER BY created_at, kind, host',
    );
    return rows.map((row) => ({ kind: row.kind, host: row.host as RuleHost, createdAt: row.created_at }));
  }

  async covering(ruleKeys: readonly string[]): Promise<CoveringRules> {
    const rows = await this.db.query<{ kind: DomainRuleKind }>(
      'SELECT DISTINCT kind FROM domain_rules WHERE host_key = ANY($1::text[])',
      [ruleKeys],
    );
    const kinds = new Set(rows.map((row) => row.kind));
    return { block: kinds.has('block'), allow: kinds.has('allow') };
  }

  private blockAll(hosts: readonly RuleHost[], now: Date): Promise<Removals & { added: number }> {
    return this.db.transaction(async (tx) => {
      const added = await insertRules(tx, 'block', hosts, now);
      const ranges = hosts.map((host) => ruleKeyRange(hostKey(host)));
      const removed = await tx.query(
        `DELETE FROM followers WHERE EXISTS (
           SELECT 1 FROM unnest($1::text[], $2::text[]) AS r(lo, hi) WHERE host_key >= r.lo AND host_key < r.hi)`,
        [ranges.map((r) => r.from), ranges.map((r) => r.below)],
      );
      const lanes = await tx.query<{ lane: string | null }>(
        "SELECT DISTINCT lane FROM jobs WHERE state = 'pending' AND kind = ANY($1::text[])",
        [FEDERATION_JOB_KINDS],
      );
      const covered = coveredLanes(
        lanes.map((row) => row.lane),
        hosts,
      );
      const dropped =
        covered.length === 0
          ? { count: 0 }
          : await tx.query(
              "DELETE FROM jobs WHERE state = 'pending' AND lane = ANY($1::text[]) AND kind = ANY($2::text[])",
              [covered, FEDERATION_JOB_KINDS],
            );
      return { added, followersRemoved: removed.count, jobsDropped: dropped.count };
    });
  }
}

async function insertRules(
  db: Queryable,
  kind: DomainRuleKind,
  hosts: readonly RuleHost[],
  now: Date,
): Promise<number> {
  const { count } = await db.query(INSERT, [kind, hosts, hosts.map(hostKey), now]);
  return count;
}
