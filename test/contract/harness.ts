import type { Persistence } from '../../src/application/ports/persistence.js';

/** How a contract suite gets a store: a fresh, empty one per call, which the suite closes when done. */
export interface PersistenceHarness {
  open(): Promise<Persistence>;
}

/** Opens a fresh store before each test and closes it after; the returned getter reads it inside a test. */
export function useStore(harness: PersistenceHarness): () => Persistence {
  let store: Persistence | undefined;
  beforeEach(async () => {
    store = await harness.open();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => {
    if (!store) throw new Error('The store is only open inside a test.');
    return store;
  };
}
