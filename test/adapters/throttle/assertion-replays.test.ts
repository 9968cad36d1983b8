// The jti memory of client assertions (API.md §2.5) on every store's counters: a replay is refused, through another
// connection to the same store too (another instance), exactly one of concurrent uses wins, and the hourly clean-up
// forgets a pair once its window is over. MongoDB's counters run where MONGODB_URL is set
// (test/adapters/persistence/mongodb.test.ts exercises them for the other limits).
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASSERTION_REPLAY_WINDOW_SECONDS } from '../../../src/domain/client-authentication.js';
import type { OpenedStore } from '../../../src/adapters/persistence/store-driver.js';
import { CounterAssertionReplays } from '../../../src/adapters/throttle/counter-assertion-replays.js';
import { openStore } from '../../../src/composition/store-drivers.js';
import { freshDatabase, postgresAvailable } from '../../support/postgres-cluster.js';

const replaysOn = (opened: OpenedStore) =>
  new CounterAssertionReplays(
    opened.counters.limiter('client_assertion_jti', 1, ASSERTION_REPLAY_WINDOW_SECONDS),
  );

/** Two connections to one store (two instances), and how to let both go. */
interface TwoInstances {
  readonly one: OpenedStore;
  readonly two: OpenedStore;
  readonly done: () => Promise<void>;
}

const stores: [string, () => Promise<TwoInstances | null>][] = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'l2-replays-'));
      const url = `sqlite:${join(dir, 'l2.sqlite')}`;
      const one = await openStore({ kind: 'sqlite', url });
      await one.persistence.ready();
      const two = await openStore({ kind: 'sqlite', url });
      await two.persistence.ready();
      return {
        one,
        two,
        done: async () => {
          await one.persistence.close();
          await two.persistence.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'postgres',
    async () => {
      if (!postgresAvailable()) return null;
      const scratch = await freshDatabase();
      const one = await openStore({ kind: 'postgres', url: scratch.url });
      const two = await openStore({ kind: 'postgres', url: scratch.url });
      await one.persistence.ready();
      await two.persistence.ready();
      return {
        one,
        two,
        done: async () => {
          await one.persistence.close();
          await two.persistence.close();
          await scratch.drop();
        },
      };
    },
  ],
];

for (const [name, open] of stores) {
  describe(`client assertion replays on the ${name} counters`, () => {
    let instances: TwoInstances | null;
    let one: CounterAssertionReplays;
    let two: CounterAssertionReplays;
    before(async function () {
      instances = await open();
      if (!instances) this.skip();
      one = replaysOn(instances.one);
      two = replaysOn(instances.two);
      // The SQLite limiter creates its table a turn of the event loop after it is made (as at start-up).
      await new Promise((resolve) => setImmediate(resolve));
    });
    after(async () => instances?.done());

    it('takes a jti once per client, and refuses it again through another instance', async () => {
      expect(await one.firstUse('https://a.example/c.json', 'jti-1')).to.equal(true);
      expect(await two.firstUse('https://a.example/c.json', 'jti-1')).to.equal(false);
      expect(await one.firstUse('https://a.example/c.json', 'jti-1')).to.equal(false);
      // Another client's jti is its own.
      expect(await two.firstUse('https://b.example/c.json', 'jti-1')).to.equal(true);
    });

    it('lets exactly one of many concurrent uses of one assertion through', async () => {
      const both = [one, two];
      const uses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => both[i % 2]!.firstUse('https://a.example/c.json', 'raced')),
      );
      expect(uses.filter(Boolean)).to.have.length(1);
    });

    it('is forgotten by the hourly clean-up once the replay window is over, not before', async () => {
      expect(await one.firstUse('https://a.example/c.json', 'jti-old')).to.equal(true);
      await instances!.two.counters.purgeExpired(new Date(Date.now() + 60_000));
      expect(await one.firstUse('https://a.example/c.json', 'jti-old')).to.equal(false);
      const limiter = instances!.one.counters.limiter(
        'client_assertion_jti',
        1,
        ASSERTION_REPLAY_WINDOW_SECONDS,
      );
      const key = createHash('sha256').update('https://a.example/c.json\njti-old').digest('base64url');
      expect(await limiter.get(key), 'kept within the window').not.to.equal(null);
      await instances!.two.counters.purgeExpired(
        new Date(Date.now() + (ASSERTION_REPLAY_WINDOW_SECONDS + 60) * 1000),
      );
      expect(await limiter.get(key), 'deleted once the window is over').to.equal(null);
    });
  });
}
