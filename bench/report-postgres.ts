// Scenario 13's lines of the table (issue 35): the seeded store on PostgreSQL, each line against its floor or its
// SQLite counterpart. See docs/performance.md, "13 PostgreSQL".
import type { LoadResult } from './load-types.js';
import type { FloorResult } from './postgres-floor.js';
import type { BenchResults } from './results-types.js';
import type { PagePair } from './scenarios/deep-pages.js';
import type { CpuSeconds } from './scenarios/postgres-scale.js';
import { meanRps } from './scenarios/store-size.js';

type Add = (metric: string, value: string, baseline: string, ratio: number | null) => void;

export interface Formats {
  readonly count: (n: number) => string;
  readonly rate: (n: number) => string;
  readonly ms: (n: number | null) => string;
  readonly mib: (n: number) => string;
  readonly withLatency: (r: LoadResult) => string;
}

export function postgresRows(results: BenchResults, add: Add, f: Formats): void {
  const pg = results.postgres;
  if (!pg) return;
  if (pg.skipped) {
    add('SKIPPED: not run', pg.skipped, '–', null);
    return;
  }
  const { count, rate, ms, mib, withLatency } = f;
  const floorText = (r: FloorResult) =>
    `floor ${rate(r.perSecond)}/s (p50 ${ms(r.latencyMs.p50)}, p99 ${ms(r.latencyMs.p99)}; ${r.loops} loops, pool ${r.pool})`;
  if (pg.seed)
    add(
      `seeding (PostgreSQL ${pg.version ?? '?'}): the SQLite store's export piped into the import, ` +
        `${count(pg.seed.records)} records (${count(pg.seed.users)} users, ${count(pg.seed.activities)} activities, ` +
        `${count(pg.seed.revocations)} revocations)`,
      `${pg.seed.seconds.toFixed(1)} s, ${mib(pg.seed.databaseBytes / 2 ** 20)} (pg_database_size)`,
      results.seedFileMiB === undefined ? '–' : `${mib(results.seedFileMiB)} of SQLite`,
      results.seedFileMiB === undefined ? null : pg.seed.databaseBytes / 2 ** 20 / results.seedFileMiB,
    );
  if (pg.memory) {
    const { emptySqlite, emptyPostgres, seededPostgres } = pg.memory;
    add(
      'RSS idle, empty PostgreSQL store (target ≤ the same on SQLite)',
      mib(emptyPostgres.rssMiB),
      `empty SQLite store ${mib(emptySqlite.rssMiB)}, started the same way`,
      emptyPostgres.rssMiB / emptySqlite.rssMiB,
    );
    add(
      'RSS idle, seeded PostgreSQL store',
      mib(seededPostgres.rssMiB),
      `empty SQLite store ${mib(emptySqlite.rssMiB)}`,
      seededPostgres.rssMiB / emptySqlite.rssMiB,
    );
  }
  if (pg.verify && pg.verifyFloor && pg.seed) {
    add(
      `verify, ${count(pg.seed.revocations)} revocations, 64 conn.; ratio: L2 ÷ floor (target ≥ 0.7)`,
      withLatency(pg.verify),
      floorText(pg.verifyFloor),
      pg.verify.rps / pg.verifyFloor.perSecond,
    );
    const sqlite = results.storeSize?.seeded;
    if (sqlite && sqlite.length > 0)
      add(
        'verify on PostgreSQL ÷ on SQLite (scenario 3, the same seeded store)',
        `${rate(pg.verify.rps)} rps`,
        `SQLite ${rate(meanRps(sqlite))} rps (mean of ${sqlite.length})`,
        pg.verify.rps / meanRps(sqlite),
      );
  }
  const sqliteFederation = results.seeded?.federation;
  if (pg.federation)
    for (const what of ['webfinger', 'actor'] as const)
      add(
        `${what}, 64 conn.${sqliteFederation ? '; ratio: ÷ SQLite (scenario 4)' : ''}`,
        withLatency(pg.federation[what]),
        sqliteFederation ? `SQLite ${rate(sqliteFederation[what].rps)} rps` : '–',
        sqliteFederation ? pg.federation[what].rps / sqliteFederation[what].rps : null,
      );
  if (pg.pages) {
    const pair = (what: string, p: PagePair) => {
      const deep = new URL(p.deepPath, 'http://x').searchParams.get('before');
      add(
        `${what} deep page (before=${deep} of ${count(p.total)}), p50 (target ≤ 1.3)`,
        ms(p.deep.latencyMs.p50),
        `first page ${ms(p.first.latencyMs.p50)}`,
        p.deep.latencyMs.p50 / p.first.latencyMs.p50,
      );
      add(
        `${what} deep page, p99`,
        ms(p.deep.latencyMs.p99),
        `first page ${ms(p.first.latencyMs.p99)}`,
        p.deep.latencyMs.p99 / p.first.latencyMs.p99,
      );
    };
    pair('`GET /activities`', pg.pages.activities);
    pair('outbox of `bench_heavy`', pg.pages.outbox);
    pair('`GET /registry`', pg.pages.registry);
  }
  if (pg.writes && pg.writesFloor) {
    add(
      `asset writes/s with the transparency log, ${pg.writes.connections} conn.; ratio: L2 ÷ floor (target ≥ 0.7)`,
      `${rate(pg.writes.rps)}/s (p50 ${ms(pg.writes.latencyMs.p50)}, p99 ${ms(pg.writes.latencyMs.p99)})`,
      `${floorText(pg.writesFloor)}, ${count(pg.writesFloor.checkpointRounds ?? 0)} signing rounds`,
      pg.writes.rps / pg.writesFloor.perSecond,
    );
    const sqlite = results.transparency?.writes?.with;
    if (sqlite && sqlite.length > 0)
      add(
        'asset writes on PostgreSQL ÷ on SQLite (scenario 11, with the log, a fresh store)',
        `${rate(pg.writes.rps)}/s`,
        `SQLite ${rate(meanRps(sqlite))}/s (mean of ${sqlite.length})`,
        pg.writes.rps / meanRps(sqlite),
      );
  }
  if (pg.twoInstances && pg.verify && pg.writes) {
    const cores = results.machine.cores;
    const { verify, writes } = pg.twoInstances;
    const sum = (runs: readonly LoadResult[]) => runs.reduce((a, r) => a + r.rps, 0);
    add(
      `verify, two instances on the database, 32 conn. each at once (${cores} cores); ratio: ÷ one instance`,
      `${rate(sum(verify))} rps (${verify.map((r) => rate(r.rps)).join(' + ')})`,
      `one instance ${rate(pg.verify.rps)} rps`,
      sum(verify) / pg.verify.rps,
    );
    add(
      `asset writes, two instances, ${writes[0].connections} conn. each at once (${cores} cores); ratio: ÷ one instance`,
      `${rate(sum(writes))}/s (${writes.map((r) => rate(r.rps)).join(' + ')})`,
      `one instance ${rate(pg.writes.rps)}/s`,
      sum(writes) / pg.writes.rps,
    );
  }
  const perOperation = (what: string, load?: LoadResult, cpu?: CpuSeconds, bare?: FloorResult) => {
    if (!load || !cpu || !bare || load.ok === 0 || bare.operations === 0) return;
    const us = (seconds: number, n: number) => `${((seconds / n) * 1e6).toFixed(0)} µs`;
    const l2 = (cpu.client + cpu.postgres) / load.ok;
    const floor = (bare.cpu.client + bare.cpu.postgres) / bare.operations;
    add(
      `CPU per ${what} (from /proc): the process under load + the PostgreSQL server; ratio: L2's ÷ the floor's`,
      `L2 ${us(cpu.client, load.ok)} + PostgreSQL ${us(cpu.postgres, load.ok)}`,
      `floor: client ${us(bare.cpu.client, bare.operations)} + PostgreSQL ${us(bare.cpu.postgres, bare.operations)}`,
      l2 / floor,
    );
  };
  perOperation('verify', pg.verify, pg.verifyCpu, pg.verifyFloor);
  perOperation('asset write', pg.writes, pg.writesCpu, pg.writesFloor);
  if (pg.startupCheck && pg.startupCheck.size > 0)
    add(
      `start-up check of the log, ${count(pg.startupCheck.size)} entries`,
      `${pg.startupCheck.seconds.toFixed(1)} s`,
      results.transparency?.startupCheck
        ? `SQLite ${results.transparency.startupCheck.seconds.toFixed(1)} s`
        : '–',
      results.transparency?.startupCheck
        ? pg.startupCheck.seconds / results.transparency.startupCheck.seconds
        : null,
    );
}
