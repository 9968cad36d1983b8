import { POSTGRES_DRIVER } from '../../../src/adapters/persistence/postgres/postgres-driver.js';
import { persistenceContracts } from '../../contract/persistence-contracts.js';
import { POSTGRES_SKIPPED, postgresAvailable, postgresServerUrl } from '../../support/postgres-cluster.js';

describe('PostgreSQL persistence', function () {
  if (!postgresAvailable()) {
    console.log(`      ${POSTGRES_SKIPPED}`);
    return;
  }

  persistenceContracts('postgres', {
    open: async () => POSTGRES_DRIVER.contractHarness(await postgresServerUrl()).open(),
  });
});
