import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { OpenedStore, RateLimitCounters, StoreDriver } from '../store-driver.js';
import { openMemoryPersistence, type MemoryPersistence } from './open-memory-persistence.js';

/** Counters in this process: they expire by themselves. */
export const memoryRateLimitCounters = (): RateLimitCounters => ({
  limiter: (keyPrefix, points, duration) => new RateLimiterMemory({ keyPrefix, points, duration }),
  purgeExpired: async () => {},
});

/** A memory store (a fresh one unless given), with its counters. */
export const openMemoryStore = (
  persistence: MemoryPersistence = openMemoryPersistence(),
): OpenedStore<MemoryPersistence> => ({ persistence, counters: memoryRateLimitCounters() });

/** STORE=memory:: the data lives as long as the service's process. */
export const MEMORY_DRIVER: StoreDriver<MemoryPersistence> = {
  open: () => openMemoryStore(),
  commandsRefused:
    'STORE=memory: lives inside the server process; point STORE at its sqlite: or mongodb:// store',
  contractHarness: () => ({ open: async () => openMemoryPersistence() }),
};
