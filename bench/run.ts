// `npm run bench [-- --quick] [-- --keep] [-- --fan-out-only] [-- --fat-bundles-only] [-- --postgres-only] [-- --oidc-only]
// [-- --domains-only]`: builds and starts the real service, a bare Koa baseline and two peers
// (oidc-provider, Fedify), loads them from separate processes, prints one markdown table and writes
// bench/results.json. See docs/performance.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { measureCeiling } from './ceilings.js';
import { runJsonChild } from './child.js';
import { signIn } from './http.js';
import { measure } from './load-runner.js';
import type { LoadResult } from './load-types.js';
import { describeMachine } from './machine.js';
import { CONNECTIONS, PROFILES } from './profile.js';
import { markdownTable, RESULTS_FILE, tableRows, writeResults } from './report.js';
import type { BenchResults } from './results-types.js';
import { deepPages } from './scenarios/deep-pages.js';
import { fanOut } from './scenarios/fan-out.js';
import { postgresScale } from './scenarios/postgres-scale.js';
import { profileFanOut } from './scenarios/profile-fan-out.js';
import { federationReads } from './scenarios/federation.js';
import { badSignatures } from './scenarios/bad-signatures.js';
import { blockedDomainFlood, blockWrites } from './scenarios/blocked-domain.js';
import { verifyUnderLoginStorm } from './scenarios/login-storm.js';
import { fedifyReads, introspection } from './scenarios/peers.js';
import { registrations } from './scenarios/registration.js';
import { signIns } from './scenarios/sign-in.js';
import { meanRps, verifyByStoreSize } from './scenarios/store-size.js';
import { verifyHotPath } from './scenarios/verify.js';
import {
  clientIdAgainstToday,
  introspectionLines,
  KIT_CACHE_FLOOR,
  l1Standards,
} from './scenarios/l1-standards.js';
import { tokenEndpoint } from './scenarios/token-endpoint.js';
import { logReads, verifyFull, writesWithAndWithout } from './scenarios/transparency.js';
import { FAT_BUNDLES, fatBundleReads } from './scenarios/fat-bundles.js';
import { BENCH_USERNAMES } from './seed-fixtures.js';
import type { FatSeedOptions, FatSeedReport, SeedOptions, SeedReport } from './seed-types.js';
import { startHello, startL2, startPeer, type Memory, type RunningServer } from './servers.js';
import { createWorkspace } from './workspace.js';

const profile = PROFILES[process.argv.includes('--quick') ? 'quick' : 'full'];
const keep = process.argv.includes('--keep');
/** Scenario 7 alone (both its lines of activities and its profile line), with the signing ceiling it is read against. */
const fanOutOnly = process.argv.includes('--fan-out-only');
/** Scenario 11's fat bundles alone (issue 33), between two hello baselines. */
const fatBundlesOnly = process.argv.includes('--fat-bundles-only');
/** Scenario 13 alone (issue 35): the build, the seeding, and the seeded store on PostgreSQL. */
const postgresOnly = process.argv.includes('--postgres-only');
/** Issue 36 alone: the ID-token signing ceiling, scenario 10's introspection lines and scenario 14. */
const oidcOnly = process.argv.includes('--oidc-only');
/** Issue 37 alone: scenario 9's bad-signature line and scenario 15 (the blocked domain's flood, the block's write). */
const domainsOnly = process.argv.includes('--domains-only');
const PUBLIC_URL = 'http://l2.bench.localhost';
const PASSWORD = 'bench password 1';
const client = { username: BENCH_USERNAMES.client, password: PASSWORD };
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Empty, seeded, empty, seeded: see scenarios/store-size.ts. */
const STORE_SIZE_ROUNDS = 2;
/** With the log, without, with, without: see scenarios/transparency.ts. */
const TLOG_WRITE_ROUNDS = 2;

const started = process.hrtime.bigint();
const since = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e9;
const results: BenchResults = {
  profile,
  machine: describeMachine(),
  startedAt: new Date().toISOString(),
  seconds: {},
  log: [],
};
/** Logs progress with the machine's 1-minute load average (the bench's own processes add about 2 under load). */
const step = (message: string) => {
  const load = loadavg()[0] ?? 0;
  results.log.push({ seconds: Math.round(since(started)), load1: load, message });
  console.error(`[${since(started).toFixed(0).padStart(4)} s, load ${load.toFixed(2)}] ${message}`);
};

const workspace = createWorkspace();
const running = new Set<RunningServer>();

/** Starts a server, lets `use` measure it, stops it whatever happens. */
async function serve<S extends RunningServer, T>(
  start: () => Promise<S>,
  use: (s: S) => Promise<T>,
): Promise<T> {
  const server = await start();
  running.add(server);
  try {
    return await use(server);
  } finally {
    await server.stop();
    running.delete(server);
  }
}

const l2On = (store: 'empty' | 'seeded') => () =>
  startL2({
    storePath: store === 'empty' ? workspace.emptyStore : workspace.seededStore,
    secretsDir: workspace.secretsDir,
    publicUrl: PUBLIC_URL,
    bcryptCost: profile.bcryptCost,
  });

const hello = () =>
  serve(startHello, (s) =>
    measure(
      { url: `${s.url}/`, connections: CONNECTIONS.throughput, seconds: profile.throughputSeconds },
      profile.warmUpSeconds,
    ),
  );

function build(): void {
  const t = process.hrtime.bigint();
  const built = spawnSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  if (built.status !== 0) throw new Error(`npm run build failed (${built.status ?? built.signal})`);
  results.seconds.build = since(t);
  step(`built in ${results.seconds.build.toFixed(1)} s`);
}

/** Scenarios 1, 2, 5, 12, 9, 10 and 14 on a fresh, empty store. */
async function onEmptyStore(l2: RunningServer): Promise<void> {
  await sleep(2000);
  const empty: NonNullable<BenchResults['empty']> = { memoryIdle: l2.memory() };
  results.empty = empty;
  const tokens = await signIn(l2.url, client, true);
  empty.verify = await verifyHotPath(l2.url, tokens, profile);
  step(`verify ${empty.verify.unscoped.rps.toFixed(0)} / scoped ${empty.verify.scoped.rps.toFixed(0)} rps`);
  empty.storm = await verifyUnderLoginStorm(l2.url, tokens, client, profile);
  const { verify, logins } = empty.storm;
  step(`storm: verify p99 ${verify.latencyMs.p99.toFixed(1)} ms, ${logins.rps.toFixed(2)} logins/s`);
  empty.registration = await registrations(l2.url, PASSWORD, profile);
  step(`registration ${empty.registration.rps.toFixed(2)}/s`);
  empty.signIn = await signIns(l2.url, PUBLIC_URL, client, profile);
  step(
    `sign-in: password ${empty.signIn.password.rps.toFixed(2)}/s, passkey ${empty.signIn.passkey.perSecond.toFixed(1)}/s`,
  );
  empty.badSignatures = await badSignatures(l2.url, PUBLIC_URL, client.username, profile);
  step(`inbox with bad signatures: ${empty.badSignatures.answeredPerSecond.toFixed(0)} answers/s`);
  await blockedDomain(l2);
  empty.l1Standards = await l1Standards(l2.url, PUBLIC_URL, tokens, profile);
  const { introspection, kitCache } = empty.l1Standards;
  const mean = (runs: readonly { rps: number }[]) => runs.reduce((a, r) => a + r.rps, 0) / runs.length;
  step(
    `introspection ${mean(introspection.introspection).toFixed(0)} rps beside verify ${mean(introspection.verify).toFixed(0)}; ` +
      `kit verify ${kitCache.withCache.perSecond.toFixed(0)}/s with its cache, ${kitCache.without.perSecond.toFixed(0)}/s without`,
  );
  if (kitCache.ratio < KIT_CACHE_FLOOR)
    throw new Error(
      `the kit's cache is ${kitCache.ratio.toFixed(1)} × faster, under its floor of ${KIT_CACHE_FLOOR} ×`,
    );
  stepClientId(introspection);
  empty.tokenEndpoint = await tokenEndpoint(l2.url, PASSWORD, profile, workspace.dir);
  stepTokenEndpoint(empty.tokenEndpoint);
  empty.memoryAfterLoad = l2.memory();
}

/** Scenario 10's issue-36 line: introspection by client_id against today's introspection, and the noise. */
function stepClientId(lines: Parameters<typeof clientIdAgainstToday>[0]): void {
  const reading = clientIdAgainstToday(lines);
  if (reading)
    step(
      `introspection by client_id ÷ today's introspection ${reading.ratio.toFixed(2)}, ` +
        `${reading.withinNoise ? 'within' : 'outside'} the noise (±${(reading.noise * 100).toFixed(0)} %)` +
        (reading.ratioToResource === null
          ? ''
          : `; ÷ the scoped token with resource ${reading.ratioToResource.toFixed(2)}, ` +
            `${reading.withinNoiseOfResource ? 'within' : 'outside'} the noise`),
    );
}

function stepTokenEndpoint(measured: NonNullable<NonNullable<BenchResults['empty']>['tokenEndpoint']>): void {
  const rates = measured.rounds.map((r) => r.rps.toFixed(0)).join(', ');
  step(
    `token endpoint with an ID token: ${rates} codes redeemed/s (codes minted ahead at ${measured.mintedPerSecond.toFixed(0)}/s)`,
  );
}

/** Scenario 15's flood, right after scenario 9's bad signatures on the same service, which it is read against. */
async function blockedDomain(l2: RunningServer): Promise<void> {
  const flood = await blockedDomainFlood(l2.url, workspace.emptyStore, PUBLIC_URL, client.username, profile);
  results.domains = { ...results.domains, flood };
  const bad = results.empty?.badSignatures?.answeredPerSecond ?? NaN;
  step(
    `inbox of a blocked domain: ${flood.refusedPerSecond.toFixed(0)} refusals/s, ` +
      `${(flood.refusedPerSecond / bad).toFixed(2)} × the bad signatures' rate; ${flood.actorFetches} actor fetches`,
  );
}

/** Scenario 15's block of a domain with 5,000 followers and their deliveries: SQLite, then PostgreSQL. */
async function domainBlockWrites(): Promise<void> {
  step('domain block: seeding 5,000 followers of blocked.example and 5,000 kept, each with a delivery');
  results.domains = { ...results.domains, write: await blockWrites(workspace.dir, PUBLIC_URL, step) };
}

/** `--domains-only`: the build, scenario 9's bad signatures and scenario 15 beside them, then the block's write. */
async function domainsAlone(): Promise<void> {
  build();
  // Scenario 9's line is read against it.
  const rsaVerify = await measureCeiling({
    kind: 'rsa-verify',
    seconds: profile.ceilingSeconds,
    bcryptCost: profile.bcryptCost,
  });
  results.ceilings = { rsaVerify };
  await serve(l2On('empty'), async (l2) => {
    await sleep(2000);
    results.empty = { memoryIdle: l2.memory() };
    await signIn(l2.url, client, true);
    results.empty.badSignatures = await badSignatures(l2.url, PUBLIC_URL, client.username, profile);
    step(`inbox with bad signatures: ${results.empty.badSignatures.answeredPerSecond.toFixed(0)} answers/s`);
    await blockedDomain(l2);
  });
  await domainBlockWrites();
}

/** `--oidc-only`: the build, the ID-token signing ceiling, scenario 10's introspection lines and scenario 14. */
async function oidcAlone(): Promise<void> {
  build();
  const idTokenSign = await measureCeiling({
    kind: 'id-token-sign',
    seconds: profile.ceilingSeconds,
    bcryptCost: profile.bcryptCost,
  });
  results.ceilings = { idTokenSign };
  step(`ceiling per core: RS256 ID tokens ${idTokenSign.perSecond.toFixed(0)}/s`);
  await serve(l2On('empty'), async (l2) => {
    await sleep(2000);
    const empty: NonNullable<BenchResults['empty']> = { memoryIdle: l2.memory() };
    results.empty = empty;
    const tokens = await signIn(l2.url, client, true);
    empty.introspection = await introspectionLines(l2.url, tokens, profile);
    stepClientId(empty.introspection);
    empty.tokenEndpoint = await tokenEndpoint(l2.url, PASSWORD, profile, workspace.dir);
    stepTokenEndpoint(empty.tokenEndpoint);
  });
}

/** Scenario 8, oidc-provider: token introspection, compared with scenario 1's verify (measured just before). */
async function peerIntrospection(): Promise<void> {
  const measured = await serve(
    () => startPeer('oidc-introspection-server'),
    (peer) => introspection(peer, profile),
  );
  results.peers = { ...results.peers, oidcProvider: measured };
  const { introspection: load } = measured;
  step(
    `oidc-provider ${measured.version} introspection ${load.rps.toFixed(0)} rps (active before and after)`,
  );
}

/** Scenario 8, Fedify: webfinger and the actor, compared with scenario 4 (measured in the rounds just before). */
async function peerFedify(): Promise<void> {
  const measured = await serve(
    () => startPeer('fedify-server'),
    (peer) => fedifyReads(peer, profile),
  );
  results.peers = { ...results.peers, fedify: measured };
  const { webfinger, actor } = measured.federation;
  step(
    `Fedify ${measured.version}: webfinger ${webfinger.rps.toFixed(0)}, actor ${actor.rps.toFixed(0)} rps`,
  );
}

/** Scenario 7 on stores of its own. */
async function runFanOut(): Promise<void> {
  const { hosts, followersPerHost, activities } = profile.fanOut;
  step(`fan-out: ${hosts * followersPerHost} followers on ${hosts} hosts, ${activities} activities`);
  results.fanOut = await fanOut(profile.fanOut, workspace.dir, async (storePath) => {
    const server = await startL2({
      storePath,
      secretsDir: workspace.secretsDir,
      publicUrl: PUBLIC_URL,
      bcryptCost: profile.bcryptCost,
    });
    running.add(server);
    return { ...server, stop: () => server.stop().finally(() => running.delete(server)) };
  });
  const { alive, halfHanging, floor } = results.fanOut;
  step(
    `fan-out: ${alive.deliveriesPerSecond.toFixed(0)} deliveries/s (${alive.seconds.toFixed(1)} s); ` +
      `half hanging ${halfHanging.seconds.toFixed(1)} s; bare client ${floor.deliveriesPerSecond.toFixed(0)}/s`,
  );
}

/** Scenario 7's profile line: the same followers, a series of profile changes, on a store of its own. */
async function runProfileFanOut(): Promise<void> {
  const { hosts, followersPerHost } = profile.fanOut;
  step(
    `profile fan-out: ${hosts * followersPerHost} followers on ${hosts} hosts, ${profile.profileChanges} changes`,
  );
  results.profileFanOut = await profileFanOut(
    { ...profile.fanOut, changes: profile.profileChanges },
    workspace.dir,
    async (storePath) => {
      const server = await startL2({
        storePath,
        secretsDir: workspace.secretsDir,
        publicUrl: PUBLIC_URL,
        bcryptCost: profile.bcryptCost,
      });
      running.add(server);
      return { ...server, stop: () => server.stop().finally(() => running.delete(server)) };
    },
  );
  const measured = results.profileFanOut;
  step(
    `profile fan-out: ${measured.deliveriesPerSecond.toFixed(0)} deliveries/s ` +
      `(${measured.deliveries} in ${measured.seconds.toFixed(1)} s, Update ${measured.updateBytes} bytes)`,
  );
}

/** Scenario 11's writes: the service with its transparency log and without it, alternating, on fresh stores. */
async function transparencyWrites(): Promise<void> {
  const settings = () => ({
    secretsDir: workspace.secretsDir,
    publicUrl: PUBLIC_URL,
    bcryptCost: profile.bcryptCost,
  });
  const writes = await writesWithAndWithout(profile, settings, workspace.dir, TLOG_WRITE_ROUNDS, (server) => {
    running.add(server);
  });
  results.transparency = { ...results.transparency, writes };
  const mean = (runs: LoadResult[]) => runs.reduce((sum, r) => sum + r.rps, 0) / runs.length;
  step(
    `asset writes: ${mean(writes.with).toFixed(0)}/s with the transparency log, ${mean(writes.without).toFixed(0)}/s without`,
  );
}

/** Scenario 11's fat bundles (issue 33): a store of fat activities of its own, its bundles read cold and warm. */
async function transparencyFatBundles(): Promise<void> {
  const bundles = FAT_BUNDLES[profile.name];
  // Every full bundle, and four entries of a partial one after them.
  const activities = bundles * 256 + 4;
  step(`fat log: seeding ${activities} activities at every field limit`);
  const storePath = join(workspace.dir, 'fat', 'l2.sqlite');
  mkdirSync(dirname(storePath), { recursive: true });
  const options: FatSeedOptions = {
    path: storePath,
    publicUrl: PUBLIC_URL,
    bcryptCost: profile.bcryptCost,
    password: PASSWORD,
    activities,
  };
  const seeded = await runJsonChild<FatSeedReport>('seed-fat-log.ts', options, 20 * 60_000);
  const start = () =>
    startL2({
      storePath,
      secretsDir: workspace.secretsDir,
      publicUrl: PUBLIC_URL,
      bcryptCost: profile.bcryptCost,
    });
  const fat = await serve(start, (l2) =>
    fatBundleReads(l2.url, storePath, bundles, seeded.meanEntryBytes, profile),
  );
  results.transparency = { ...results.transparency, fatBundles: fat };
  step(
    `fat bundles: cold ${fat.cold.perSecond.toFixed(2)}/s (floor ${fat.coldFloor.perSecond.toFixed(2)}/s), ` +
      `warm ${fat.warm.perSecond.toFixed(0)}/s (floor ${fat.warmFloor.perSecond.toFixed(0)}/s); /healthz p50 ` +
      `${fat.healthzLoaded.latencyMs.p50.toFixed(2)} ms under the audit's load, ${fat.healthzIdle.latencyMs.p50.toFixed(2)} ms idle`,
  );
}

/** Scenario 11 on the seeded store: checkpoint, tile and bundle reads, then a full verification of its log. */
async function transparencyOnSeededStore(l2: RunningServer): Promise<void> {
  const reads = await logReads(l2.url, profile);
  results.transparency = { ...results.transparency, reads };
  step(
    `checkpoint ${reads.checkpoint.rps.toFixed(0)}, tile ${reads.tile.rps.toFixed(0)}, bundle ${reads.bundle.rps.toFixed(0)} rps`,
  );
  const full = await verifyFull(l2.url, PUBLIC_URL);
  results.transparency = { ...results.transparency, verifyFull: full };
  step(
    `l2 tlog verify --full: ${full.size} entries in ${full.seconds.toFixed(1)} s, peak ${full.peakRssMiB.toFixed(0)} MiB`,
  );
}

async function seed(): Promise<void> {
  step(
    `seeding ${profile.users} users, ${profile.activities} activities, ${profile.revocations} revocations`,
  );
  const options: SeedOptions = {
    path: workspace.seededStore,
    publicUrl: PUBLIC_URL,
    bcryptCost: profile.bcryptCost,
    password: PASSWORD,
    users: profile.users,
    activities: profile.activities,
    revocations: profile.revocations,
    batch: profile.seedBatch,
  };
  results.seed = await runJsonChild<SeedReport>('seed.ts', options, 40 * 60_000);
  results.seedFileMiB = statSync(workspace.seededStore).size / 2 ** 20;
  step(`seeded in ${results.seed.seconds.total.toFixed(1)} s (${results.seedFileMiB.toFixed(0)} MiB)`);
}

/** The rest of scenario 3 and scenario 4, on the seeded store's first service (idle memory read first). */
async function onSeededStore(l2: RunningServer, idle: Memory): Promise<void> {
  const seeded: NonNullable<BenchResults['seeded']> = { memoryIdle: idle };
  results.seeded = seeded;
  seeded.pages = await deepPages(l2.url, BENCH_USERNAMES, profile);
  step('deep pages measured');
  const someone = `u${String(Math.ceil(profile.users / 2)).padStart(7, '0')}`;
  seeded.federation = await federationReads(l2.url, new URL(PUBLIC_URL).host, someone, profile);
  const { webfinger, actor } = seeded.federation;
  step(
    `webfinger ${webfinger.rps.toFixed(0)}, actor ${actor.rps.toFixed(0)} rps ` +
      `(actor ${seeded.federation.actorBytes} bytes${seeded.federation.actorHasProfile ? ', full profile' : ''})`,
  );
  seeded.memoryAfterLoad = l2.memory();
}

/** Scenario 13 (issue 35): the seeded store moved to PostgreSQL; skipped, with a line saying so, without its binaries. */
async function onPostgres(): Promise<void> {
  results.postgres = await postgresScale({
    profile,
    seededSqlite: workspace.seededStore,
    dir: workspace.dir,
    settings: { secretsDir: workspace.secretsDir, publicUrl: PUBLIC_URL, bcryptCost: profile.bcryptCost },
    client,
    step,
    track: (server) => {
      running.add(server);
      return () => running.delete(server);
    },
  });
}

/** `--postgres-only`: the build, the seeding, and scenario 13. */
async function postgresAlone(): Promise<void> {
  build();
  await seed();
  await onPostgres();
  await domainBlockWrites();
}

/** `--fan-out-only`: the build, the ceilings, and scenario 7 with its profile line. */
async function fanOutAlone(): Promise<void> {
  build();
  await ceilings();
  await runFanOut();
  await runProfileFanOut();
}

/** `--fat-bundles-only`: the build, and scenario 11's fat bundles between two hello baselines. */
async function fatBundlesAlone(): Promise<void> {
  build();
  results.baseline = { start: await hello() };
  await transparencyFatBundles();
  results.baseline.end = await hello();
}

/** The machine's ceilings, measured while nothing else of the bench runs. */
async function ceilings(): Promise<void> {
  const ceiling = { seconds: profile.ceilingSeconds, bcryptCost: profile.bcryptCost };
  const bcrypt = await measureCeiling({ kind: 'bcrypt', ...ceiling });
  const rsa = await measureCeiling({ kind: 'rsa', ...ceiling });
  const rsaSign = await measureCeiling({ kind: 'rsa-sign', ...ceiling });
  const rsaVerify = await measureCeiling({ kind: 'rsa-verify', ...ceiling });
  const ecdsaVerify = await measureCeiling({ kind: 'ecdsa-verify', ...ceiling });
  const idTokenSign = await measureCeiling({ kind: 'id-token-sign', ...ceiling });
  results.ceilings = { bcrypt, rsa, rsaSign, rsaVerify, ecdsaVerify, idTokenSign };
  step(
    `ceilings per core: bcrypt ${bcrypt.perSecond.toFixed(2)}/s, RSA keys ${rsa.perSecond.toFixed(2)}/s, ` +
      `RSA-SHA256 signatures ${rsaSign.perSecond.toFixed(0)}/s, verifications ${rsaVerify.perSecond.toFixed(0)}/s, ` +
      `ECDSA P-256 verifications ${ecdsaVerify.perSecond.toFixed(0)}/s, RS256 ID tokens ${idTokenSign.perSecond.toFixed(0)}/s`,
  );
}

async function main(): Promise<void> {
  step(`profile ${profile.name}; workspace ${workspace.dir}`);
  if (fanOutOnly) return fanOutAlone();
  if (fatBundlesOnly) return fatBundlesAlone();
  if (postgresOnly) return postgresAlone();
  if (oidcOnly) return oidcAlone();
  if (domainsOnly) return domainsAlone();
  build();
  // Ceilings first, while nothing else of the bench runs.
  await ceilings();

  results.baseline = { start: await hello() };
  step(`baseline hello ${results.baseline.start.rps.toFixed(0)} rps`);

  await serve(l2On('empty'), onEmptyStore);
  await peerIntrospection();
  await domainBlockWrites();
  await runFanOut();
  await runProfileFanOut();
  await transparencyWrites();
  await transparencyFatBundles();
  await seed();

  let seededIdle: Memory | undefined;
  results.storeSize = await verifyByStoreSize(
    (store, use) =>
      serve(l2On(store), async (l2) => {
        if (store === 'seeded' && seededIdle === undefined) {
          await sleep(2000);
          seededIdle = l2.memory();
          if (l2.tlogCheck) results.transparency = { ...results.transparency, startupCheck: l2.tlogCheck };
        }
        return use(l2);
      }),
    client,
    profile,
    STORE_SIZE_ROUNDS,
    async (l2) => {
      await onSeededStore(l2, seededIdle ?? l2.memory());
      await transparencyOnSeededStore(l2);
    },
  );
  step(
    `verify: empty ${meanRps(results.storeSize.empty).toFixed(0)}, seeded ${meanRps(results.storeSize.seeded).toFixed(0)} rps`,
  );

  await peerFedify();
  await onPostgres();

  results.baseline.end = await hello();
  step(`baseline hello again ${results.baseline.end.rps.toFixed(0)} rps`);
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error('bench failed:', error);
} finally {
  for (const server of running) await server.stop();
  if (!keep) workspace.remove();
}
results.finishedAt = new Date().toISOString();
results.seconds.total = since(started);
results.rows = tableRows(results);
writeResults(results);
console.log(markdownTable(results.rows));
console.log(`\n${profile.name} run: ${results.seconds.total.toFixed(0)} s; raw figures in ${RESULTS_FILE}`);
process.exit(failed ? 1 : 0);
