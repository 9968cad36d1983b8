// Turns the raw results into the table (stdout, docs/performance.md) and bench/results.json.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load-types.js';
import type { BundleReadResult } from './bundle-read-types.js';
import { domainRows } from './report-domains.js';
import { postgresRows } from './report-postgres.js';
import type { BenchResults, Row } from './results-types.js';
import type { PagePair } from './scenarios/deep-pages.js';
import { clientIdAgainstToday } from './scenarios/l1-standards.js';
import { meanRps } from './scenarios/store-size.js';

export const RESULTS_FILE = fileURLToPath(new URL('results.json', import.meta.url));

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const rate = (n: number) => (n >= 100 ? count(n) : n.toFixed(n >= 10 ? 1 : 2));
const ms = (n: number | null) =>
  n === null || !Number.isFinite(n)
    ? '–'
    : `${n >= 10 ? n.toFixed(1) : n >= 1 ? n.toFixed(2) : n.toFixed(3)} ms`;
const mib = (n: number) => `${n.toFixed(0)} MiB`;
const rps = (r: LoadResult) => `${rate(r.rps)} rps`;
const withLatency = (r: LoadResult) => `${rps(r)} (p50 ${ms(r.latencyMs.p50)}, p99 ${ms(r.latencyMs.p99)})`;

/** The baseline's rps: the mean of its measurements at the start and at the end of the run. */
export function helloRps(results: BenchResults): number {
  const { start, end } = results.baseline ?? {};
  const values = [start?.rps, end?.rps].filter((v): v is number => v !== undefined);
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** What the measured actor was: ", full profile, 3,012 bytes" when the bench knows. */
function actorShape(federation: { actorBytes?: number; actorHasProfile?: boolean }): string {
  if (federation.actorBytes === undefined) return '';
  return `${federation.actorHasProfile ? ', full profile' : ''}, ${count(federation.actorBytes)} bytes`;
}

export function tableRows(results: BenchResults): Row[] {
  const rows: Row[] = [];
  const add = (scenario: string, metric: string, value: string, baseline: string, ratio: number | null) =>
    rows.push({ scenario, metric, value, baseline, ratio });
  const hello = helloRps(results);
  const helloText = `hello ${rate(hello)} rps`;
  const { baseline, ceilings, empty, seeded, seed } = results;

  if (baseline?.start) {
    const { start, end } = baseline;
    add(
      'Baseline',
      'bare Koa hello, 64 conn., start / end of run',
      `${rps(start)} / ${end ? rps(end) : '–'}`,
      `${rate(hello)} rps (mean)`,
      end ? end.rps / start.rps : null,
    );
  }
  if (empty?.verify) {
    add(
      '1 Verify',
      'verify, no `l1_server`, 64 conn.',
      withLatency(empty.verify.unscoped),
      helloText,
      empty.verify.unscoped.rps / hello,
    );
    add(
      '1 Verify',
      'verify, with `l1_server`, 64 conn.',
      withLatency(empty.verify.scoped),
      helloText,
      empty.verify.scoped.rps / hello,
    );
  }
  if (empty?.storm && empty.verify && ceilings?.bcrypt) {
    const { verify, logins } = empty.storm;
    const calm = empty.verify.unscoped;
    add(
      '2 Login storm',
      'verify p99 during 16 concurrent logins',
      ms(verify.latencyMs.p99),
      `${ms(calm.latencyMs.p99)} without`,
      verify.latencyMs.p99 / calm.latencyMs.p99,
    );
    add(
      '2 Login storm',
      'verify rps during the storm',
      withLatency(verify),
      `${rps(calm)} without`,
      verify.rps / calm.rps,
    );
    const b = ceilings.bcrypt;
    add(
      '2 Login storm',
      'logins/s, 16 concurrent',
      `${rate(logins.rps)}/s (p50 ${ms(logins.latencyMs.p50)})`,
      `bcrypt ceiling ${rate(b.ceilingPerSecond)}/s (${b.cores} × ${rate(b.perSecond)}/s, cost ${results.profile.bcryptCost})`,
      logins.rps / b.ceilingPerSecond,
    );
  }
  if (empty?.signIn && ceilings?.bcrypt) {
    const { password, passkey } = empty.signIn;
    const b = ceilings.bcrypt;
    add(
      '12 Sign-in',
      'password logins/s, 16 concurrent, no second factor, nothing else running',
      `${rate(password.rps)}/s (p50 ${ms(password.latencyMs.p50)}` +
        `${password.non2xx > 0 ? `; ${count(password.non2xx)} refused by the busy hashing line` : ''})`,
      `bcrypt ceiling ${rate(b.ceilingPerSecond)}/s (${b.cores} × ${rate(b.perSecond)}/s, cost ${results.profile.bcryptCost})`,
      password.rps / b.ceilingPerSecond,
    );
    const e = ceilings.ecdsaVerify;
    if (e)
      add(
        '12 Sign-in',
        `passkey sign-ins/s, ${passkey.clients} concurrent (a challenge and an ES256 assertion each)`,
        `${rate(passkey.perSecond)}/s (p50 ${ms(passkey.latencyMs.p50)}, p99 ${ms(passkey.latencyMs.p99)}; ${count(passkey.refused)} refused)`,
        `ECDSA P-256 verification ceiling ${rate(e.ceilingPerSecond)}/s (${e.cores} × ${rate(e.perSecond)}/s)`,
        passkey.perSecond / e.ceilingPerSecond,
      );
  }
  if (empty?.badSignatures && ceilings?.rsaVerify) {
    const { load, answeredPerSecond } = empty.badSignatures;
    const v = ceilings.rsaVerify;
    const statuses = Object.entries(load.statusCodes)
      .map(([status, n]) => `${count(n)} × ${status}`)
      .join(', ');
    add(
      '9 Inbox',
      'POSTs with a bad signature by a kept key, 64 conn.',
      `${rate(answeredPerSecond)} answers/s (${statuses}; p99 ${ms(load.latencyMs.p99)})`,
      `RSA verification ceiling ${rate(v.ceilingPerSecond)}/s (${v.cores} × ${rate(v.perSecond)}/s)`,
      answeredPerSecond / v.ceilingPerSecond,
    );
  }
  if (seed) {
    const t = seed.seconds;
    add(
      'Seeding',
      `${count(seed.users)} users, ${count(seed.activities)} activities, ${count(seed.revocations)} revocations`,
      `${t.total.toFixed(0)} s (users ${t.users.toFixed(1)} s, activities ${t.activities.toFixed(0)} s, revocations ${t.revocations.toFixed(0)} s)`,
      results.seedFileMiB === undefined ? '–' : `${results.seedFileMiB.toFixed(0)} MiB of SQLite`,
      null,
    );
  }
  if (results.storeSize && seed) {
    const { empty: a, seeded: b } = results.storeSize;
    const list = (runs: LoadResult[]) => runs.map((r) => rate(r.rps)).join(', ');
    add(
      '3 Scale',
      `verify, ${count(seed.revocations)} revocations, 64 conn. (mean of ${b.length})`,
      `${rate(meanRps(b))} rps (${list(b)})`,
      `${rate(meanRps(a))} rps on an empty store (${list(a)})`,
      meanRps(b) / meanRps(a),
    );
  }
  if (seeded?.pages) {
    const pair = (what: string, p: PagePair) => {
      const deep = new URL(p.deepPath, 'http://x').searchParams.get('before');
      add(
        '3 Scale',
        `${what} deep page (before=${deep} of ${count(p.total)}), p50`,
        ms(p.deep.latencyMs.p50),
        `first page ${ms(p.first.latencyMs.p50)}`,
        p.deep.latencyMs.p50 / p.first.latencyMs.p50,
      );
      add(
        '3 Scale',
        `${what} deep page, p99`,
        ms(p.deep.latencyMs.p99),
        `first page ${ms(p.first.latencyMs.p99)}`,
        p.deep.latencyMs.p99 / p.first.latencyMs.p99,
      );
    };
    const { pages } = seeded;
    pair('`GET /activities`', pages.activities);
    pair('outbox of `bench_heavy`', pages.outbox);
    pair('`GET /registry`', pages.registry);
    add(
      '3 Scale',
      `outbox first page, ${count(pages.outbox.total)} activities, p50`,
      ms(pages.outbox.first.latencyMs.p50),
      `${ms(pages.lightOutbox.latencyMs.p50)} with ${count(pages.lightOutboxTotal)}`,
      pages.outbox.first.latencyMs.p50 / pages.lightOutbox.latencyMs.p50,
    );
  }
  if (seeded?.federation) {
    add(
      '4 Federation',
      'webfinger, 64 conn.',
      withLatency(seeded.federation.webfinger),
      helloText,
      seeded.federation.webfinger.rps / hello,
    );
    add(
      '4 Federation',
      `actor (\`application/activity+json\`${actorShape(seeded.federation)}), 64 conn.`,
      withLatency(seeded.federation.actor),
      helloText,
      seeded.federation.actor.rps / hello,
    );
  }
  if (empty?.registration && ceilings?.bcrypt && ceilings.rsa) {
    const { bcrypt: b, rsa: r } = ceilings;
    const registered = empty.registration.rps;
    add(
      '5 Registration',
      'registrations/s, 8 concurrent',
      `${rate(registered)}/s (p50 ${ms(empty.registration.latencyMs.p50)})`,
      `RSA-2048 ceiling ${rate(r.ceilingPerSecond)}/s (${r.cores} × ${rate(r.perSecond)}/s)`,
      registered / r.ceilingPerSecond,
    );
    // A registration also hashes its password: the machine's ceiling for both is the harmonic combination.
    const both = 1 / (1 / r.ceilingPerSecond + 1 / b.ceilingPerSecond);
    add(
      '5 Registration',
      'registrations/s against key generation + bcrypt',
      `${rate(registered)}/s`,
      `RSA + bcrypt ceiling ${rate(both)}/s`,
      registered / both,
    );
  }
  if (empty) {
    const idle = empty.memoryIdle.rssMiB;
    add('6 Memory', 'RSS idle, empty store', mib(idle), '–', null);
    if (empty.memoryAfterLoad)
      add(
        '6 Memory',
        'peak RSS (VmHWM), empty store, after scenarios 1, 2, 5',
        mib(empty.memoryAfterLoad.peakRssMiB),
        `idle ${mib(idle)}`,
        empty.memoryAfterLoad.peakRssMiB / idle,
      );
    if (seeded) {
      add(
        '6 Memory',
        'RSS idle, seeded store',
        mib(seeded.memoryIdle.rssMiB),
        `idle empty ${mib(idle)}`,
        seeded.memoryIdle.rssMiB / idle,
      );
      if (seeded.memoryAfterLoad)
        add(
          '6 Memory',
          'peak RSS (VmHWM), seeded store, after scenarios 3, 4',
          mib(seeded.memoryAfterLoad.peakRssMiB),
          `idle empty ${mib(idle)}`,
          seeded.memoryAfterLoad.peakRssMiB / idle,
        );
    }
  }
  if (results.fanOut && ceilings?.rsaSign) {
    const { alive, halfHanging, floor } = results.fanOut;
    const sign = ceilings.rsaSign;
    const followers = count(alive.hosts * alive.followersPerHost);
    add(
      '7 Fan-out',
      `deliveries/s: ${followers} followers on ${count(alive.hosts)} hosts, ${alive.activities} activities`,
      `${rate(alive.deliveriesPerSecond)}/s (${count(alive.deliveries)} in ${alive.seconds.toFixed(1)} s)`,
      `RSA-SHA256 signing ceiling ${rate(sign.ceilingPerSecond)}/s (${sign.cores} × ${rate(sign.perSecond)}/s)`,
      alive.deliveriesPerSecond / sign.ceilingPerSecond,
    );
    add(
      '7 Fan-out',
      'floor: the same deliveries from a bare client (no store, queue or publishing); ratio: ÷ ceiling',
      `${rate(floor.deliveriesPerSecond)}/s (${count(floor.deliveries)} in ${floor.seconds.toFixed(1)} s)`,
      `L2 is ${((alive.deliveriesPerSecond / floor.deliveriesPerSecond) * 100).toFixed(0)} % of it`,
      floor.deliveriesPerSecond / sign.ceilingPerSecond,
    );
    add(
      '7 Fan-out',
      `every live host has everything, ${count(halfHanging.hanging)} of ${count(halfHanging.hosts)} hosts hanging`,
      `${halfHanging.seconds.toFixed(1)} s`,
      `${alive.seconds.toFixed(1)} s with all alive`,
      halfHanging.seconds / alive.seconds,
    );
  }
  if (results.profileFanOut && results.fanOut) {
    const profile = results.profileFanOut;
    const { alive, floor } = results.fanOut;
    const followers = count(profile.hosts * profile.followersPerHost);
    const sorted = [...profile.changeSeconds].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    add(
      '7 Fan-out',
      `profile change: Update{Person} (${count(profile.updateBytes)} bytes) deliveries/s, ${followers} followers on ` +
        `${count(profile.hosts)} hosts, ${profile.changes} changes one after another`,
      `${rate(profile.deliveriesPerSecond)}/s (${count(profile.deliveries)} in ${profile.seconds.toFixed(1)} s; ` +
        `${median.toFixed(2)} s per change, median)`,
      `activities ${rate(alive.deliveriesPerSecond)}/s`,
      profile.deliveriesPerSecond / alive.deliveriesPerSecond,
    );
    add(
      '7 Fan-out',
      'profile change against the floor (a bare client, the same hosts)',
      `${rate(profile.deliveriesPerSecond)}/s`,
      `floor ${rate(floor.deliveriesPerSecond)}/s`,
      profile.deliveriesPerSecond / floor.deliveriesPerSecond,
    );
  }
  const introspection = empty?.l1Standards?.introspection ?? empty?.introspection;
  if (introspection) {
    const list = (runs: readonly LoadResult[]) => runs.map((r) => rate(r.rps)).join(', ');
    const introspected = meanRps([...introspection.introspection]);
    const verified = meanRps([...introspection.verify]);
    add(
      '10 L1 standards',
      `introspection (RFC 7662, a form), 64 conn., alternating with verify (mean of ${introspection.introspection.length})`,
      `${rate(introspected)} rps (${list(introspection.introspection)}; p99 ${ms(introspection.introspection.at(-1)!.latencyMs.p99)})`,
      `verify ${rate(verified)} rps (${list(introspection.verify)})`,
      introspected / verified,
    );
    const byClientId = introspection.byClientId;
    const reading = clientIdAgainstToday(introspection);
    if (byClientId && reading)
      add(
        '10 L1 standards',
        `introspection with a \`client_id\` audience (a scoped token, no \`resource\`: mod_oauth2's request), 64 conn., ` +
          `in the same rotation (mean of ${byClientId.length}); ratio: ÷ the line above`,
        `${rate(meanRps([...byClientId]))} rps (${list(byClientId)}; p99 ${ms(byClientId.at(-1)!.latencyMs.p99)})`,
        `${rate(introspected)} rps; ${reading.withinNoise ? 'within' : 'outside'} the noise (±${(reading.noise * 100).toFixed(0)} %: the widest spread of one line's runs)`,
        reading.ratio,
      );
    const byResource = introspection.byResource;
    if (byClientId && byResource && reading?.ratioToResource)
      add(
        '10 L1 standards',
        `introspection with \`resource\` (the same scoped token, today's request), 64 conn., in the same rotation ` +
          `(mean of ${byResource.length}); ratio: the \`client_id\` line ÷ this one`,
        `${rate(meanRps([...byResource]))} rps (${list(byResource)}; p99 ${ms(byResource.at(-1)!.latencyMs.p99)})`,
        `by client_id ${rate(meanRps([...byClientId]))} rps; ${reading.withinNoiseOfResource ? 'within' : 'outside'} the noise`,
        reading.ratioToResource,
      );
  }
  if (empty?.l1Standards) {
    const { kitCache } = empty.l1Standards;
    const kitRate = (r: { perSecond: number; p50: number }) => `${rate(r.perSecond)}/s (p50 ${ms(r.p50)})`;
    add(
      '10 L1 standards',
      `L1 kit verify with its cache (60 s, receiver mounted) vs without, same L2, ${kitCache.clients} clients × ${kitCache.rounds}; floor 5 ×`,
      kitRate(kitCache.withCache),
      `without ${kitRate(kitCache.without)}`,
      kitCache.ratio,
    );
  }
  const tokens = empty?.tokenEndpoint;
  const idSign = ceilings?.idTokenSign;
  if (tokens && idSign) {
    const rates = tokens.rounds.map((r) => r.rps);
    const redeemed = rates.reduce((a, b) => a + b, 0) / rates.length;
    const last = tokens.rounds.at(-1)!;
    add(
      '14 OpenID Connect',
      `codes redeemed/s at \`/oauth/token\`, each answer with an RS256 ID token (${count(tokens.idTokenBytes)} bytes), ` +
        `64 conn., codes minted ahead (mean of ${rates.length} rounds of ${count(last.ok)})`,
      `${rate(redeemed)}/s (${rates.map(rate).join(', ')}; p50 ${ms(last.latencyMs.p50)}, p99 ${ms(last.latencyMs.p99)})`,
      `RS256 ID-token signing ceiling ${rate(idSign.ceilingPerSecond)}/s (${idSign.cores} × ${rate(idSign.perSecond)}/s, jose, RSA-2048)`,
      redeemed / idSign.ceilingPerSecond,
    );
  }
  const tlog = results.transparency;
  if (tlog?.writes && tlog.writes.with.length > 0 && tlog.writes.without.length > 0) {
    const { with: on, without: off } = tlog.writes;
    const list = (runs: LoadResult[]) => runs.map((r) => rate(r.rps)).join(', ');
    add(
      '11 Transparency log',
      `asset writes/s with the log, ${on[0]!.connections} conn. (mean of ${on.length}, alternating with the line's baseline)`,
      `${rate(meanRps(on))}/s (${list(on)}; p99 ${ms(Math.max(...on.map((r) => r.latencyMs.p99)))})`,
      `${rate(meanRps(off))}/s without it (${list(off)})`,
      meanRps(on) / meanRps(off),
    );
  }
  if (tlog?.reads) {
    const { checkpoint, tile, bundle, bundleBytes } = tlog.reads;
    add(
      '11 Transparency log',
      '`GET /tlog/checkpoint`, 64 conn.',
      withLatency(checkpoint),
      helloText,
      checkpoint.rps / hello,
    );
    add(
      '11 Transparency log',
      '`GET /tlog/tile/0/000` (8 KiB), 64 conn.',
      withLatency(tile),
      helloText,
      tile.rps / hello,
    );
    add(
      '11 Transparency log',
      `\`GET /tlog/tile/entries/000\` gzip (${count(bundleBytes / 1024)} KiB before), 64 conn.`,
      withLatency(bundle),
      helloText,
      bundle.rps / hello,
    );
    if (tlog.reads.floor) {
      // The machine's floor for the same work: the same bytes and headers from a bare node:http server.
      const { floor } = tlog.reads;
      for (const [name, read, bare] of [
        ['tile', tile, floor.tile],
        ['bundle', bundle, floor.bundle],
      ] as const)
        add(
          '11 Transparency log',
          `the ${name} against the machine's floor: its bytes and headers from a bare node:http server, 64 conn.`,
          `${rate(read.rps)} ÷ ${rate(bare.rps)} rps`,
          `floor ÷ hello ${(bare.rps / hello).toFixed(2)}`,
          read.rps / bare.rps,
        );
    }
  }
  if (tlog?.fatBundles) {
    // Issue 33: bundles of the fattest activities, cold and warm, each against the machine's floor for its bytes.
    const fat = tlog.fatBundles;
    const size = `${(fat.bundleBytes / 2 ** 20).toFixed(1)} MiB, gzip ${(fat.gzipBytes / 2 ** 20).toFixed(1)} MiB`;
    const perRead = (r: BundleReadResult) => `${rate(r.perSecond)}/s (p50 ${ms(r.latencyMs.p50)})`;
    add(
      '11 Transparency log',
      `fat bundles (256 × ${count(fat.meanEntryBytes / 1000)} KB: ${size}) cold, gzip, 1 conn., each of ` +
        `${fat.bundles} read once, against the floor: each built afresh by a bare server (one read, async gzip)`,
      perRead(fat.cold),
      `floor ${perRead(fat.coldFloor)}`,
      fat.cold.perSecond / fat.coldFloor.perSecond,
    );
    add(
      '11 Transparency log',
      `a fat bundle warm (gzip), ${fat.warm.connections} conn., against the floor: its bytes and headers from a bare ` +
        'node:http server',
      `${perRead(fat.warm)}, ${count(fat.warm.mibPerSecond)} MiB/s`,
      `floor ${perRead(fat.warmFloor)}`,
      fat.warm.perSecond / fat.warmFloor.perSecond,
    );
    const codes = Object.entries(fat.attack.statusCodes)
      .map(([code, n]) => `${count(n)} × ${code}`)
      .join(', ');
    add(
      '11 Transparency log',
      `\`/healthz\`, 1 conn., while ${fat.attack.connections} conn. read the fat bundles in turn, plain, closing after ` +
        'the headers ' +
        `(they got ${codes}); ratio: p50 ÷ idle p50`,
      `p50 ${ms(fat.healthzLoaded.latencyMs.p50)}, p99 ${ms(fat.healthzLoaded.latencyMs.p99)}`,
      `idle p50 ${ms(fat.healthzIdle.latencyMs.p50)}, p99 ${ms(fat.healthzIdle.latencyMs.p99)}`,
      fat.healthzLoaded.latencyMs.p50 / fat.healthzIdle.latencyMs.p50,
    );
  }
  if (tlog?.startupCheck && tlog.startupCheck.size > 0) {
    const { size, seconds } = tlog.startupCheck;
    add(
      '11 Transparency log',
      `start-up check of ${count(size)} entries (each against its leaf hash, tiles, checkpoint)`,
      `${seconds.toFixed(1)} s`,
      '–',
      null,
    );
  }
  if (tlog?.verifyFull) {
    const { size, seconds, peakRssMiB } = tlog.verifyFull;
    add(
      '11 Transparency log',
      `\`l2 tlog verify --full\` over ${count(size)} entries (every bundle and tile fetched and rebuilt)`,
      `${seconds.toFixed(1)} s, peak RSS ${mib(peakRssMiB)}`,
      `${rate(size / seconds)} entries/s`,
      null,
    );
  }
  if (seed?.bytes) {
    const { tlog: hashes, activities, total } = seed.bytes;
    add(
      '11 Transparency log',
      `seeded store: the log's hashes and state for ${count(seed.activities)} activities`,
      `${mib(hashes / 2 ** 20)} (${(hashes / Math.max(1, seed.activities)).toFixed(1)} bytes per activity)`,
      `activities ${mib(activities / 2 ** 20)}, file ${mib(total / 2 ** 20)}`,
      hashes / total,
    );
  }
  const { oidcProvider, fedify } = results.peers ?? {};
  if (oidcProvider && empty?.verify) {
    const verify = empty.verify.unscoped;
    add(
      '8 Peers',
      `oidc-provider ${oidcProvider.version} introspection, 64 conn.; ratio: L2 verify ÷ introspection`,
      withLatency(oidcProvider.introspection),
      `L2 verify ${rps(verify)}`,
      verify.rps / oidcProvider.introspection.rps,
    );
  }
  if (fedify && seeded?.federation) {
    const l2 = seeded.federation;
    add(
      '8 Peers',
      `Fedify ${fedify.version} webfinger, 64 conn.; ratio: L2 webfinger ÷ Fedify webfinger`,
      withLatency(fedify.federation.webfinger),
      `L2 webfinger ${rps(l2.webfinger)}`,
      l2.webfinger.rps / fedify.federation.webfinger.rps,
    );
    add(
      '8 Peers',
      `Fedify ${fedify.version} actor, 64 conn.; ratio: L2 actor ÷ Fedify actor`,
      withLatency(fedify.federation.actor),
      `L2 actor ${rps(l2.actor)}`,
      l2.actor.rps / fedify.federation.actor.rps,
    );
  }
  domainRows(
    results,
    (metric, value, baseline, ratio) => add('15 Domain blocks', metric, value, baseline, ratio),
    {
      count,
      rate,
      ms,
    },
  );
  postgresRows(
    results,
    (metric, value, baseline, ratio) => add('13 PostgreSQL', metric, value, baseline, ratio),
    { count, rate, ms, mib, withLatency },
  );
  return rows;
}

export function markdownTable(rows: readonly Row[]): string {
  const ratio = (r: number | null) => (r === null ? '–' : r >= 10 ? r.toFixed(1) : r.toFixed(2));
  const lines = [
    '| scenario | metric | value | baseline | ratio |',
    '| --- | --- | --- | --- | ---: |',
    ...rows.map((r) => `| ${r.scenario} | ${r.metric} | ${r.value} | ${r.baseline} | ${ratio(r.ratio)} |`),
  ];
  return lines.join('\n');
}

export function writeResults(results: BenchResults): void {
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}
