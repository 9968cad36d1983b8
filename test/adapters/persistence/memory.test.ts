import {
  openMemoryPersistence,
  type MemoryPersistence,
} from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { PersistenceHarness } from '../../contract/harness.js';
import { persistenceContracts } from '../../contract/persistence-contracts.js';
import { LARGE_TILE_EDGE_SIZES, transparencyLogAtSizes } from '../../contract/transparency-log.contract.js';

describe('in-memory persistence', () => {
  const harness: PersistenceHarness<MemoryPersistence> = { open: async () => openMemoryPersistence() };

  persistenceContracts('memory', harness);
  // The largest tile edges (a full tile of level 1's tiles) on the store that holds them fastest.
  transparencyLogAtSizes('memory', harness, LARGE_TILE_EDGE_SIZES);
});
