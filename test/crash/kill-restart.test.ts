// Crash safety on SQLite: concurrent clients register, log in and out, attach and detach L1 servers and publish
// (create, update, delete assets) against the real server process, which is killed with SIGKILL at a random moment
// while requests are in flight, then restarted on the same file. After every restart, what any 2xx answer
// acknowledged must be there, nothing may be half-written, the activity log stays gap-free, revocations stay
// revoked; at the end every revocation notice is delivered or still queued.
//
// Replay a run with CRASH_SEED=<seed printed at the start>; CRASH_ROUNDS sets the number of kills (default 32).
import { expect } from 'chai';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { CrashWorld } from './crash-world.js';
import { rngFor } from './prng.js';

/** Any ≥ 32-byte secret: tokens are checked only by the server. */
const SECRET = 'crash-test-secret-0123456789-abcdefghijklmnop';
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 32);
/** Clients working as existing users in each round, and clients registering a new user. */
const ACTORS = 6;
const REGISTRATIONS = 2;
/** Kill after this many ms (uniform) of workload: registrations alone take ~250 ms (bcrypt + an RSA key). */
const KILL_DELAY_MS = [15, 650] as const;

async function kill(l2: L2Process): Promise<boolean> {
  if (l2.child.exitCode !== null || l2.child.signalCode !== null) return false;
  const exited = once(l2.child, 'exit');
  l2.child.kill('SIGKILL');
  await exited;
  return true;
}

describe('crash safety: kill -9 of the real server on SQLite, restarted on the same file', () => {
  let dir: string;
  let l1Servers: FakeL1Server[] = [];
  let l2: L2Process | null = null;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-crash-'));
    writeFileSync(join(dir, 'jwt_secret'), SECRET);
  });
  after(async () => {
    if (l2) await kill(l2);
    await Promise.all(l1Servers.map((l1) => l1.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write and no half of any other over ${ROUNDS} kills`, async function () {
    this.timeout(300_000);
    console.log(`      crash seed ${SEED} (replay: CRASH_SEED=${SEED}), ${ROUNDS} rounds`);
    const started = Date.now();
    const dbPath = join(dir, 'l2.sqlite');
    const env = {
      STORE: `sqlite:${dbPath}`,
      SECRETS_DIR: dir,
      BCRYPT_COST: '4',
      PUBLIC_URL: 'http://l2.crash.test',
      QUEUE_POLL_INTERVAL_MS: '50',
      NOTICE_RETRY_FIRST_DELAY_MS: '50',
      REGISTRATIONS_PER_ADDRESS: '100000',
      ASSET_WRITES_PER_USER: '100000',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
      LOGIN_MAX_FAILURES_PER_USERNAME: '100000',
    };
    l1Servers = await Promise.all([new FakeL1Server().start(), new FakeL1Server().start()]);
    const world = new CrashWorld(
      l1Servers.map((l1) => l1.url),
      dbPath,
    );
    for (const l1 of l1Servers) {
      // The answer is decided per notice (some first attempts fail, to exercise retries across kills).
      l1.onNotice = async (body) => {
        l1.noticeStatuses.push(world.answerNotice(body));
      };
    }
    const failIfProblems = () =>
      expect(world.problems, `seed ${SEED}: ${world.problems.length} problems`).to.deep.equal([]);

    l2 = await startL2Process(env);
    // A few users to work with from the first round on; no kill here.
    await Promise.all(
      Array.from({ length: ACTORS }, (_, i) => world.actor(l2!.url, null, rngFor(SEED, 0, i), 3)),
    );
    failIfProblems();

    for (let round = 1; round <= ROUNDS; round++) {
      world.round = round;
      const rng = rngFor(SEED, round);
      const delay = Math.round(KILL_DELAY_MS[0] + rng() * (KILL_DELAY_MS[1] - KILL_DELAY_MS[0]));
      const pool = world.registeredUsers();
      // Distinct users: each user's operations are sequential, so what a 2xx answer implies is exact.
      const chosen: string[] = [];
      while (chosen.length < Math.min(ACTORS, pool.length)) {
        const name = pool[Math.floor(rng() * pool.length)]!;
        if (!chosen.includes(name)) chosen.push(name);
      }
      const base = l2.url;
      const actors = [
        ...chosen.map((name, i) => world.actor(base, name, rngFor(SEED, round, i + 1), 400)),
        ...Array.from({ length: REGISTRATIONS }, (_, i) =>
          world.actor(base, null, rngFor(SEED, round, ACTORS + i + 1), 400),
        ),
      ];
      const before = { ...world.stats };
      // The one sleep: the random moment of the kill, while requests are in flight.
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (!(await kill(l2))) world.problem(`the server had exited on its own: ${l2.child.exitCode}`);
      await Promise.all(actors);
      const snapshot = world.snapshotAfterKill();

      const restarting = Date.now();
      l2 = await startL2Process(env);
      const checking = Date.now();
      await world.check(l2.url, round === ROUNDS);
      console.log(
        `      round ${round}: kill at ${delay} ms, ` +
          `${world.stats.acknowledged - before.acknowledged} acknowledged / ` +
          `${world.stats.lost - before.lost} cut off, ${world.stats.activities} activities, ` +
          `${snapshot.queued} notices queued (${snapshot.leased} leased) at the kill; ` +
          `restart ${checking - restarting} ms, check ${Date.now() - checking} ms`,
      );
      failIfProblems();
    }

    // The last process is left running: it must send every notice it can.
    const notices = await world.drainAndCheckNotices(20_000);
    const revoked = world.tokens.filter((t) => t.revocationAcknowledged).length;
    console.log(
      `      ${ROUNDS} kills in ${Math.round((Date.now() - started) / 1000)} s: ${world.users.size} users, ` +
        `${world.assets.size} assets, ${world.stats.activities} activities, ${revoked} acknowledged revocations, ` +
        `notices ${notices.delivered} delivered / ${notices.queued} still queued; ` +
        `${world.stats.acknowledged} requests acknowledged, ${world.stats.lost} cut off ` +
        `(of their writes ${world.stats.cutOffCommitted} found committed, ${world.stats.cutOffNotCommitted} not)`,
    );
    failIfProblems();
    expect(world.stats.lost, 'some requests were in flight at the kills').to.be.greaterThan(0);
  });
});
