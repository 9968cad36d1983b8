// Rule (operators, API.md §4.3): a Mastodon domain-block export is imported by blocking every `suspend` row's
// domain, all in one write; other severities (silence, noop) have no equivalent here and are skipped, and so are
// rows whose domain is no host (or is PUBLIC_URL's) — each skip counted by its reason.
import { parseRuleHost, type RuleHost } from '../../../domain/domain-rules.js';
import type { Clock } from '../../ports/clock.js';
import type { DomainRuleStore } from '../../ports/domain-rule-store.js';

/** One row of the export: its domain and severity as written. */
export interface DomainBlockRow {
  readonly domain: string;
  readonly severity: string;
}

export interface DomainBlocksImported {
  /** Blocks added. */
  readonly added: number;
  readonly skipped: {
    /** Rows of another severity than `suspend`. */
    readonly severity: number;
    /** Suspended domains blocked already (or twice in the file). */
    readonly already: number;
    /** Rows whose domain is no host (or PUBLIC_URL's). */
    readonly invalid: number;
  };
  /** The first few reasons rows were no host, for the operator. */
  readonly invalidReasons: readonly string[];
  readonly followersRemoved: number;
  readonly jobsDropped: number;
}

/** How many reasons of rows that are no host the answer repeats. */
const REASONS_SHOWN = 5;

export class ImportDomainBlocks {
  constructor(
    private readonly rules: DomainRuleStore,
    private readonly ownHost: string,
    private readonly clock: Clock,
  ) {}

  async execute(rows: readonly DomainBlockRow[]): Promise<DomainBlocksImported> {
    const hosts: RuleHost[] = [];
    const invalidReasons: string[] = [];
    let severity = 0;
    for (const row of rows) {
      if (row.severity.trim().toLowerCase() !== 'suspend') {
        severity++;
        continue;
      }
      const host = parseRuleHost(row.domain, this.ownHost);
      if (host.ok) hosts.push(host.value);
      else invalidReasons.push(host.error);
    }
    const outcome = await this.rules.blockMany(hosts, this.clock.now());
    return {
      added: outcome.added,
      skipped: {
        severity,
        already: hosts.length - outcome.added,
        invalid: invalidReasons.length,
      },
      invalidReasons: invalidReasons.slice(0, REASONS_SHOWN),
      followersRemoved: outcome.followersRemoved,
      jobsDropped: outcome.jobsDropped,
    };
  }
}
