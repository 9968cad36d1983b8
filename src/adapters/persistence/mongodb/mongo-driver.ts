import { randomBytes } from 'node:crypto';
import { RateLimiterMongo } from 'rate-limiter-flexible';
import type { RateLimitCounters, StoreDriver } from '../store-driver.js';
import { openMongoPersistence, type MongoPersistence } from './open-mongo-persistence.js';

/** The rate-limit counters in the store's database, shared by every process on it. */
const mongoRateLimitCounters = (store: MongoPersistence): RateLimitCounters => ({
  // Built on first use, once the store is connected; RateLimiterMongo keeps its own TTL index.
  limiter: (keyPrefix, points, duration) =>
    new RateLimiterMongo({
      storeClient: store.client,
      dbName: store.db.databaseName,
      tableName: 'login_failures',
      keyPrefix,
      points,
      duration,
    }),
  purgeExpired: async () => {},
});

/** STORE=mongodb://…: loaded only when STORE names it (the driver library holds about 20 MiB). */
export const MONGODB_DRIVER: StoreDriver<MongoPersistence> = {
  open: (url) => {
    const persistence = openMongoPersistence(url);
    return { persistence, counters: mongoRateLimitCounters(persistence) };
  },
  // Each store a database of its own on the server at `serverUrl`, dropped once closed.
  contractHarness: (serverUrl) => ({
    open: async () => {
      if (!serverUrl) throw new Error('the MongoDB contract suites need the URL of a replica set');
      const store = openMongoPersistence(serverUrl, { dbName: `l2_test_${randomBytes(6).toString('hex')}` });
      await store.ready();
      let dropped = false;
      return {
        ...store,
        close: async () => {
          if (!dropped) {
            dropped = true;
            await store.db.dropDatabase().catch(() => undefined);
          }
          await store.close();
        },
      };
    },
  }),
};
