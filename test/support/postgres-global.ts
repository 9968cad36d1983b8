// Mocha global fixtures for a run on PostgreSQL (`--require test/support/postgres-global.ts`): the runner's own
// process starts the one throwaway cluster of the run before any worker exists and hands it to the workers as
// PG_TEST_URL, so that parallel files share one cluster rather than start one each.
import { postgresServerUrl } from './postgres-cluster.js';

export async function mochaGlobalSetup(): Promise<void> {
  process.env.PG_TEST_URL = await postgresServerUrl();
}
