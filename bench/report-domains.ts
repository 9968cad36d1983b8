// Scenario 15's lines of the table (issue 37): a blocked domain's flood of the inbox against scenario 9's bad
// signatures of the same run, and the block of a domain with 5,000 followers against its 1 s target. See
// docs/performance.md, "15 Domain blocks".
import type { BlockWriteReport } from './block-domain-store.js';
import type { BenchResults } from './results-types.js';
import { BLOCK_SECONDS_TARGET, BLOCKED_DOMAIN, FLOOD_RATIO_TARGET } from './scenarios/blocked-domain.js';
import type { Formats } from './report-postgres.js';

type Add = (metric: string, value: string, baseline: string, ratio: number | null) => void;

/** "MISSED" beside a figure that is on the wrong side of its target: the table says so itself. */
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

export function domainRows(results: BenchResults, add: Add, f: Pick<Formats, 'count' | 'rate' | 'ms'>): void {
  const { count, rate, ms } = f;
  const { flood, write } = results.domains ?? {};
  const bad = results.empty?.badSignatures;
  if (flood && bad) {
    const ratio = flood.refusedPerSecond / bad.answeredPerSecond;
    const others = Object.entries(flood.load.statusCodes)
      .filter(([status]) => status !== '403')
      .map(([status, n]) => `${count(n)} × ${status}`);
    add(
      `a blocked domain's validly signed Follows, 64 conn.; ratio: ÷ scenario 9's answers/s ` +
        `(target ≥ ${FLOOD_RATIO_TARGET}: ${verdict(ratio >= FLOOD_RATIO_TARGET)})`,
      `${rate(flood.refusedPerSecond)} refusals (403)/s (p50 ${ms(flood.load.latencyMs.p50)}, p99 ` +
        `${ms(flood.load.latencyMs.p99)}; ${flood.actorFetches} actor fetches` +
        `${others.length > 0 ? `; also ${others.join(', ')}` : ''})`,
      `bad signatures ${rate(bad.answeredPerSecond)} answers/s, same service, just before`,
      ratio,
    );
  }
  const line = (store: string, r: BlockWriteReport) => {
    const gone = r.followersBefore - r.followersLeft === r.followersRemoved;
    const dropped = r.pendingBefore - r.pendingLeft === r.jobsDropped;
    add(
      `\`block\` of ${BLOCKED_DOMAIN} on ${store}: ${count(r.followersRemoved)} followers on its subdomains ` +
        `removed and ${count(r.jobsDropped)} deliveries dropped in one write, as many kept elsewhere ` +
        `(target < ${BLOCK_SECONDS_TARGET} s: ${verdict(r.seconds < BLOCK_SECONDS_TARGET)}); ratio: ÷ target`,
      `${ms(r.seconds * 1000)}; left ${count(r.followersLeft)} of ${count(r.followersBefore)} followers, ` +
        `${count(r.pendingLeft)} of ${count(r.pendingBefore)} pending jobs` +
        `${gone && dropped ? '' : ' — COUNTS DISAGREE'}`,
      `target ${BLOCK_SECONDS_TARGET} s`,
      r.seconds / BLOCK_SECONDS_TARGET,
    );
  };
  if (write?.sqlite) line('SQLite', write.sqlite);
  if (write?.postgres) line(`PostgreSQL ${write.postgres.version}`, write.postgres);
  if (write?.postgresSkipped) add('SKIPPED: the block on PostgreSQL', write.postgresSkipped, '–', null);
}
