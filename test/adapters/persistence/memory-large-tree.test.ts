// The largest tile edges (a full tile of level 1's tiles, 65,536 entries) on the store that holds them fastest: the
// slow tier (each size takes seconds).
import { MEMORY_DRIVER } from '../../../src/adapters/persistence/memory/memory-driver.js';
import { LARGE_TILE_EDGE_SIZES, transparencyLogAtSizes } from '../../contract/transparency-log.contract.js';

describe('in-memory persistence, the largest tile edges', () => {
  transparencyLogAtSizes('memory', MEMORY_DRIVER.contractHarness(), LARGE_TILE_EDGE_SIZES);
});
