// Scenario 13 (issue 35): the seeded store on PostgreSQL. A throwaway cluster (test/support/postgres-cluster.ts) is
// seeded from the run's seeded SQLite store (bench/seed-postgres.ts), then L2 (the production build, STORE=postgres://…)
// is measured on it: idle memory beside an empty SQLite and an empty PostgreSQL store, verify, webfinger and actor,
// deep pages, asset writes — verify and writes each against the floor of the same statements from a bare driver
// (bench/postgres-floor.ts) — and two instances on the database against one. Skipped, loudly, without the binaries.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { withDatabase } from '../../src/adapters/persistence/postgres/postgres-scratch-databases.js';
import { DEFAULT_STORE_SETTINGS } from '../../src/adapters/persistence/store-driver.js';
import { PostgresNode, postgresBinaries } from '../../test/support/postgres-cluster.js';
import { runJsonChild } from '../child.js';
import { processCpuSeconds, processTreeCpuSeconds } from '../cpu-time.js';
import { signIn, type Tokens } from '../http.js';
import { measure, runLoad } from '../load-runner.js';
import type { LoadResult, LoadSpec } from '../load-types.js';
import type { FloorResult, FloorSpec } from '../postgres-floor.js';
import { CONNECTIONS, type Profile } from '../profile.js';
import type { PostgresSeedOptions, PostgresSeedReport } from '../seed-postgres.js';
import { BENCH_USERNAMES } from '../seed-fixtures.js';
import { startL2, type L2Settings, type Memory, type RunningServer } from '../servers.js';
import { deepPages, type DeepPageResults } from './deep-pages.js';
import { federationReads, type FederationResults } from './federation.js';
import { verifySpec } from './verify.js';

export interface PostgresScaleResults {
  /** Why the scenario did not run (no PostgreSQL binaries), or undefined when it ran. */
  readonly skipped?: string;
  /** `SHOW server_version` of the throwaway cluster. */
  version?: string;
  seed?: PostgresSeedReport;
  /** VmRSS 2 s after start, each store fresh and started the same way. */
  memory?: { emptySqlite: Memory; emptyPostgres: Memory; seededPostgres: Memory; afterLoad?: Memory };
  startupCheck?: { readonly size: number; readonly seconds: number };
  verify?: LoadResult;
  /** CPU seconds of the measured verify run: the service's process, and the PostgreSQL server's processes. */
  verifyCpu?: CpuSeconds;
  verifyFloor?: FloorResult;
  federation?: FederationResults;
  pages?: DeepPageResults;
  writes?: LoadResult;
  writesCpu?: CpuSeconds;
  writesFloor?: FloorResult;
  /** Two instances on the database, the load split over both (two load runs at once, each half the connections). */
  twoInstances?: { verify: [LoadResult, LoadResult]; writes: [LoadResult, LoadResult] };
}

/** Where a measured run's CPU went: the process under test (L2, or the floor's client) and the database server. */
export interface CpuSeconds {
  readonly client: number;
  readonly postgres: number;
}

export interface PostgresScaleContext {
  readonly profile: Profile;
  /** The run's seeded SQLite store, the service on it stopped. */
  readonly seededSqlite: string;
  /** Where a fresh SQLite store for the memory comparison goes. */
  readonly dir: string;
  /** startL2's settings but the store. */
  readonly settings: Omit<L2Settings, 'storePath'>;
  readonly client: { username: string; password: string };
  readonly step: (message: string) => void;
  /** Registers a started service, so that the run stops it whatever happens. */
  readonly track: (server: RunningServer) => () => void;
}

/** Registered through L2 on the seeded database: the writes' user. */
const WRITER = 'pg_writer';
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

export async function postgresScale(context: PostgresScaleContext): Promise<PostgresScaleResults> {
  if (postgresBinaries() === null) {
    const skipped =
      'no PostgreSQL binaries found (apt-get install postgresql, or set PG_BIN): scenario 13 was NOT run';
    context.step(`SKIPPED PostgreSQL scale: ${skipped}`);
    return { skipped };
  }
  const node = await PostgresNode.primary();
  try {
    return await onCluster(node, context);
  } finally {
    await node.destroy();
  }
}

/** An administrative connection to the cluster: a few statements, closed after. */
async function administer<T>(
  url: string,
  work: (query: (text: string) => Promise<readonly unknown[]>) => Promise<T>,
) {
  const admin = openPostgresPersistence(url, { ...DEFAULT_STORE_SETTINGS, poolSize: 1 }).database;
  try {
    return await work((text) => admin.query(text));
  } finally {
    await admin.close();
  }
}

async function onCluster(node: PostgresNode, context: PostgresScaleContext): Promise<PostgresScaleResults> {
  const { profile, step } = context;
  const results: PostgresScaleResults = {};
  const server = node.url();
  results.version = await administer(server, async (query) => {
    for (const name of ['l2_seeded', 'l2_empty'])
      await query(`CREATE DATABASE ${name} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`);
    const [row] = (await query('SHOW server_version')) as { server_version: string }[];
    return row?.server_version;
  });
  const seededUrl = withDatabase(server, 'l2_seeded');
  step(`PostgreSQL ${results.version}: seeding from the SQLite store (export piped into import)`);
  const seedOptions: PostgresSeedOptions = { sqlitePath: context.seededSqlite, url: seededUrl };
  results.seed = await runJsonChild<PostgresSeedReport>('seed-postgres.ts', seedOptions, 60 * 60_000);
  step(
    `PostgreSQL seeded: ${results.seed.records} records in ${results.seed.seconds.toFixed(1)} s, ` +
      `${(results.seed.databaseBytes / 2 ** 20).toFixed(0)} MiB`,
  );

  const start = async (store: { storeUrl: string } | { storePath: string }) => {
    const l2 = await startL2({ storePath: '', ...context.settings, ...store });
    const untrack = context.track(l2);
    return { ...l2, stop: () => l2.stop().finally(untrack) };
  };
  const idle = async (store: { storeUrl: string } | { storePath: string }) => {
    const l2 = await start(store);
    try {
      await sleep(2000);
      return l2.memory();
    } finally {
      await l2.stop();
    }
  };
  const freshSqlite = join(context.dir, 'postgres-compare', 'l2.sqlite');
  mkdirSync(dirname(freshSqlite), { recursive: true });
  const emptySqlite = await idle({ storePath: freshSqlite });
  const emptyPostgres = await idle({ storeUrl: withDatabase(server, 'l2_empty') });

  const postmaster = Number(readFileSync(join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const first = await start({ storeUrl: seededUrl });
  let second: RunningServer | undefined;
  let writer: Tokens | undefined;
  try {
    results.startupCheck = first.tlogCheck;
    await sleep(2000);
    results.memory = { emptySqlite, emptyPostgres, seededPostgres: first.memory() };
    step(
      `idle RSS: SQLite empty ${emptySqlite.rssMiB.toFixed(0)}, PostgreSQL empty ${emptyPostgres.rssMiB.toFixed(0)}, ` +
        `seeded ${results.memory.seededPostgres.rssMiB.toFixed(0)} MiB`,
    );
    const tokens = await signIn(first.url, context.client, false);
    [results.verify, results.verifyCpu] = await measureWithCpu(
      verifySpec(first.url, tokens, profile.throughputSeconds),
      profile.warmUpSeconds,
      first.pid,
      postmaster,
    );
    results.verifyFloor = await floor(
      seededUrl,
      'verify',
      CONNECTIONS.throughput,
      tokens.session,
      profile,
      postmaster,
    );
    step(
      `PostgreSQL verify ${results.verify.rps.toFixed(0)} rps, floor ${results.verifyFloor.perSecond.toFixed(0)}/s`,
    );
    const someone = `u${String(Math.ceil(profile.users / 2)).padStart(7, '0')}`;
    const domain = new URL(context.settings.publicUrl).host;
    results.federation = await federationReads(first.url, domain, someone, profile);
    results.pages = await deepPages(first.url, BENCH_USERNAMES, profile);
    step(
      `PostgreSQL webfinger ${results.federation.webfinger.rps.toFixed(0)}, actor ` +
        `${results.federation.actor.rps.toFixed(0)} rps; deep pages measured`,
    );
    writer = await signIn(first.url, { username: WRITER, password: context.client.password }, true);
    [results.writes, results.writesCpu] = await measureWithCpu(
      writesSpec(first.url, writer, CONNECTIONS.writes, profile),
      profile.warmUpSeconds,
      first.pid,
      postmaster,
    );
    results.memory.afterLoad = first.memory();
    step(`PostgreSQL asset writes ${results.writes.rps.toFixed(0)}/s`);

    // Two instances, the load split: each gets half the connections, both runs at once, rates summed.
    second = await start({ storeUrl: seededUrl });
    const both = [first, second] as const;
    const half = (n: number) => n / 2;
    const verifyBoth = await Promise.all(
      both.map((l2) =>
        measure(
          {
            ...verifySpec(l2.url, tokens, profile.throughputSeconds),
            connections: half(CONNECTIONS.throughput),
          },
          profile.warmUpSeconds,
        ),
      ),
    );
    const writesBoth = await Promise.all(
      both.map((l2) =>
        measure(writesSpec(l2.url, writer!, half(CONNECTIONS.writes), profile), profile.warmUpSeconds),
      ),
    );
    results.twoInstances = {
      verify: [verifyBoth[0]!, verifyBoth[1]!],
      writes: [writesBoth[0]!, writesBoth[1]!],
    };
    step(
      `two instances: verify ${(verifyBoth[0]!.rps + verifyBoth[1]!.rps).toFixed(0)} rps, writes ` +
        `${(writesBoth[0]!.rps + writesBoth[1]!.rps).toFixed(0)}/s`,
    );
  } finally {
    await second?.stop();
    await first.stop();
  }
  // Last, with no L2 running: the floor's writes append to the log too (consistently: real leaf hashes).
  if (writer !== undefined) {
    results.writesFloor = await floor(
      seededUrl,
      'writes',
      CONNECTIONS.writes,
      writer.session,
      profile,
      postmaster,
      WRITER,
    );
    step(`PostgreSQL asset writes floor ${results.writesFloor.perSecond.toFixed(0)}/s`);
  }
  return results;
}

/** As measure() (a warm-up, a pause, the run), with the CPU time of the run itself: the service's, the server's. */
async function measureWithCpu(
  spec: LoadSpec,
  warmUpSeconds: number,
  service: number,
  postmaster: number,
): Promise<[LoadResult, CpuSeconds]> {
  if (warmUpSeconds > 0) await runLoad({ ...spec, seconds: warmUpSeconds });
  await sleep(250);
  const before = { client: processCpuSeconds(service), postgres: processTreeCpuSeconds(postmaster) };
  const result = await runLoad(spec);
  return [
    result,
    {
      client: processCpuSeconds(service) - before.client,
      postgres: processTreeCpuSeconds(postmaster) - before.postgres,
    },
  ];
}

function writesSpec(base: string, writer: Tokens, connections: number, profile: Profile): LoadSpec {
  return {
    url: `${base}/assets`,
    method: 'POST',
    headers: { authorization: `Bearer ${writer.session}`, accept: 'application/json' },
    connections,
    seconds: profile.throughputSeconds,
    uniqueAsset: true,
  };
}

/** The floor child for `kind`, as many loops as the load has connections, L2's default pool. */
function floor(
  url: string,
  kind: FloorSpec['kind'],
  loops: number,
  token: string,
  profile: Profile,
  postmasterPid: number,
  writer?: string,
): Promise<FloorResult> {
  const spec: FloorSpec = {
    url,
    kind,
    loops,
    pool: DEFAULT_STORE_SETTINGS.poolSize,
    seconds: profile.throughputSeconds,
    warmUpSeconds: profile.warmUpSeconds,
    // What L2 probes the revocations for: the SHA-256 of the token the load presents.
    tokenHash: sha256Hex(token),
    postmasterPid,
    ...(writer === undefined ? {} : { writer }),
  };
  return runJsonChild<FloorResult>(
    'postgres-floor.ts',
    spec,
    (profile.throughputSeconds + profile.warmUpSeconds + 90) * 1000,
  );
}
