import type { StoreDriver } from '../store-driver.js';
import { openPostgresPersistence, type PostgresPersistence } from './open-postgres-persistence.js';
import { postgresRateLimitCounters } from './postgres-rate-limit-counters.js';
import { scratchDatabase } from './postgres-scratch-databases.js';

/**
 * STORE=postgres://…: several instances on one database. The driver library (postgres.js) is loaded when the store
 * first connects, so a service on another store never loads it.
 */
export const POSTGRES_DRIVER: StoreDriver<PostgresPersistence> = {
  open: (url, settings) => {
    const persistence = openPostgresPersistence(url, settings);
    return {
      persistence,
      counters: postgresRateLimitCounters(persistence.database),
      instruments: persistence.database.instruments,
      clockOffsetMs: async () => {
        // Compared with the middle of the round trip: the server read its clock somewhere within it.
        const sent = Date.now();
        const [row] = await persistence.database.query<{ ms: string }>(
          'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::text AS ms',
        );
        return Math.round(Number(row!.ms) - (sent + Date.now()) / 2);
      },
    };
  },
  // Each store a database of its own on the server at `serverUrl`, copied from a migrated template, dropped once closed.
  contractHarness: (serverUrl) => ({
    open: async () => {
      if (!serverUrl) throw new Error('the PostgreSQL contract suites need the URL of a server');
      const scratch = await scratchDatabase(serverUrl);
      const store = openPostgresPersistence(scratch.url, {
        poolSize: 4,
        connectTimeoutSeconds: 5,
        idleTimeoutSeconds: 0,
        maxLifetimeSeconds: 0,
      });
      await store.ready();
      return {
        ...store,
        close: async () => {
          await store.close();
          await scratch.drop();
        },
      };
    },
  }),
};
