import { MEMORY_DRIVER } from '../../../src/adapters/persistence/memory/memory-driver.js';
import { persistenceContracts } from '../../contract/persistence-contracts.js';
import { LARGE_TILE_EDGE_SIZES, transparencyLogAtSizes } from '../../contract/transparency-log.contract.js';

describe('in-memory persistence', () => {
  const harness = MEMORY_DRIVER.contractHarness();

  persistenceContracts('memory', harness);
  // The largest tile edges (a full tile of level 1's tiles) on the store that holds them fastest.
  transparencyLogAtSizes('memory', harness, LARGE_TILE_EDGE_SIZES);
});
