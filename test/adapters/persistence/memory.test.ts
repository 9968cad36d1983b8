import { MEMORY_DRIVER } from '../../../src/adapters/persistence/memory/memory-driver.js';
import { persistenceContracts } from '../../contract/persistence-contracts.js';

describe('in-memory persistence', () => {
  persistenceContracts('memory', MEMORY_DRIVER.contractHarness());
});
