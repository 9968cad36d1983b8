// Crash safety on SQLite and on PostgreSQL: concurrent clients register, log in and out, attach and detach L1 servers and publish
// (create, update, delete assets) against the real server process, which is killed with SIGKILL at a random moment
// while requests are in flight — and while it delivers activities to followers — then restarted on the same file
// or database.
// After every restart, what any 2xx answer acknowledged must be there, nothing may be half-written, the activity log
// stays gap-free, revocations stay revoked, every activity in the log (acknowledged or not) by a user with followers
// is delivered to each of their inboxes (a shared inbox once) or still queued for it, and no inbox received an
// activity the log does not hold (the transactional outbox). At the end every revocation notice is delivered or still
// queued, and, once the last process has drained its queue, every activity reached every follower inbox.
//
// The followers are real HTTP servers on 127.0.0.1 that record what they receive (first attempts of some
// deliveries are refused, to exercise retries across kills); a killed process's deliveries wait for its lease
// (DELIVERY_LEASE_SECONDS, 15 here) to run out.
//
// Replay a run with CRASH_SEED=<seed printed at the start>; CRASH_ROUNDS sets the number of kills (default 32).
import { expect } from 'chai';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { CRASH_STORES, type CrashStore } from './crash-stores.js';
import { CrashWorld } from './crash-world.js';
import { FakeInboxHost } from './fake-inbox-host.js';
import { rngFor } from './prng.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

/** Any ≥ 32-byte secret: tokens are checked only by the server. */
const SECRET = 'crash-test-secret-0123456789-abcdefghijklmnop';
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 32);
/** Clients working as existing users in each round, and clients registering a new user. */
const ACTORS = 6;
const REGISTRATIONS = 2;
/** Kill after this many ms (uniform) of workload: registrations alone take ~250 ms (bcrypt + an RSA key). */
const KILL_DELAY_MS = [15, 650] as const;
/**
 * Users `cr0`… (every name the run can register) given followers before the first start: the first ACTORS (they
 * publish from the start), then every other one, so users with and without followers alternate.
 */
const FOLLOWED_USERS = ACTORS + REGISTRATIONS * ROUNDS;
const PUBLIC_URL = 'http://l2.crash.test';
/** The lease of a job claimed by a process; a killed process's deliveries wait this long. */
const LEASE_SECONDS = 15;

async function kill(l2: L2Process): Promise<boolean> {
  if (l2.child.exitCode !== null || l2.child.signalCode !== null) return false;
  const exited = once(l2.child, 'exit');
  l2.child.kill('SIGKILL');
  await exited;
  return true;
}

for (const kind of CRASH_STORES)
  describe(`crash safety: kill -9 of the real server on ${kind.name}`, () => {
    let dir: string;
    let store: CrashStore;
    let l1Servers: FakeL1Server[] = [];
    let inboxHosts: FakeInboxHost[] = [];
    let l2: L2Process | null = null;

    before(async function () {
      if (!kind.available()) this.skip();
      dir = mkdtempSync(join(tmpdir(), 'l2-crash-'));
      writeFileSync(join(dir, 'jwt_secret'), SECRET);
      writeNoticeKey(dir);
      writeIdTokenKey(dir);
      writeTestTlogKey(dir);
      store = await kind.make(dir);
    });
    after(async () => {
      if (l2) await kill(l2);
      await Promise.all([...l1Servers, ...inboxHosts].map((server) => server.stop()));
      await store?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(`keeps every acknowledged write and no half of any other over ${ROUNDS} kills`, async function () {
      this.timeout(300_000);
      console.log(`      crash seed ${SEED} (replay: CRASH_SEED=${SEED}), ${ROUNDS} rounds`);
      const started = Date.now();
      const env = {
        STORE: store.url,
        SECRETS_DIR: dir,
        BCRYPT_COST: '4',
        PUBLIC_URL,
        QUEUE_POLL_INTERVAL_MS: '50',
        DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
        NOTICE_RETRY_FIRST_DELAY_MS: '50',
        REGISTRATIONS_PER_ADDRESS: '100000',
        ASSET_WRITES_PER_USER: '100000',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
        LOGIN_MAX_FAILURES_PER_USERNAME: '100000',
      };
      l1Servers = await Promise.all([new FakeL1Server().start(), new FakeL1Server().start()]);
      inboxHosts = await Promise.all([1, 2, 3].map(() => new FakeInboxHost().start()));
      const world = new CrashWorld(
        l1Servers.map((l1) => l1.url),
        store,
        PUBLIC_URL,
        inboxHosts,
      );
      for (const l1 of l1Servers) {
        // The answer is decided per notice (some first attempts fail, to exercise retries across kills).
        l1.onNotice = async (body) => {
          l1.noticeStatuses.push(world.answerNotice(body));
        };
      }
      for (const host of inboxHosts) {
        // Likewise per delivery; held up to 10 ms, so that kills find deliveries in flight.
        host.answer = (delivery) => world.answerDelivery(delivery);
        host.maxDelayMs = 10;
      }
      await world.seedFollowers(FOLLOWED_USERS, ACTORS);
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
        const snapshot = await world.snapshotAfterKill();

        const restarting = Date.now();
        l2 = await startL2Process(env);
        const checking = Date.now();
        await world.check(l2.url, round === ROUNDS);
        console.log(
          `      round ${round}: kill at ${delay} ms, ` +
            `${world.stats.acknowledged - before.acknowledged} acknowledged / ` +
            `${world.stats.lost - before.lost} cut off, ${world.stats.activities} activities, ` +
            `${snapshot.queued} notices queued (${snapshot.leased} leased), ` +
            `${snapshot.deliveries} deliveries queued (${snapshot.deliveriesLeased} leased) at the kill, ` +
            `${world.stats.delivered} delivered so far; ` +
            `restart ${checking - restarting} ms, check ${Date.now() - checking} ms`,
        );
        failIfProblems();
      }

      // The last process is left running: it must deliver every activity (once the killed process's leases have run
      // out) and send every notice it can.
      const drain = await world.drainAndCheckDeliveries(LEASE_SECONDS * 1000 + 75_000);
      const notices = await world.drainAndCheckNotices(20_000);
      const revoked = world.tokens.filter((t) => t.revocationAcknowledged).length;
      const followed = world.registeredUsers().filter((name) => world.followers.has(name)).length;
      console.log(
        `      ${ROUNDS} kills in ${Math.round((Date.now() - started) / 1000)} s: ${world.users.size} users, ` +
          `${world.assets.size} assets, ${world.stats.activities} activities, ${revoked} acknowledged revocations, ` +
          `notices ${notices.delivered} delivered / ${notices.queued} still queued; ` +
          `${followed} users with followers: ${world.stats.deliveriesRequired} (activity, inbox) pairs, ` +
          `${world.stats.delivered} deliveries answered 2xx (${world.stats.redelivered} of them repeats), ` +
          `${world.stats.deliveriesRefused} answered 503, queue drained in ${Math.round(drain.waitedMs / 1000)} s; ` +
          `${world.stats.acknowledged} requests acknowledged, ${world.stats.lost} cut off ` +
          `(of their writes ${world.stats.cutOffCommitted} found committed, ${world.stats.cutOffNotCommitted} not)`,
      );
      failIfProblems();
      expect(world.stats.lost, 'some requests were in flight at the kills').to.be.greaterThan(0);
      expect(world.stats.deliveriesRequired, 'activities by users with followers').to.be.greaterThan(0);
    });
  });
