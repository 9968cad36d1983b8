import {
  openMemoryPersistence,
  type MemoryPersistence,
} from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { PersistenceHarness } from '../../contract/harness.js';
import { persistenceContracts } from '../../contract/persistence-contracts.js';

describe('in-memory persistence', () => {
  const harness: PersistenceHarness<MemoryPersistence> = { open: async () => openMemoryPersistence() };

  persistenceContracts('memory', harness);
});
