// Builds the whole application on the store STORE names, as `npm start` would, then prints which database drivers
// Node has loaded: {"mongodb": <number of the driver's modules>}. Run by test/composition/lazy-driver.test.ts in a
// process of its own, so that nothing the test runner loaded counts.
import { createRequire } from 'node:module';
import { buildApplication } from '../../src/composition/application.js';
import { loadConfig } from '../../src/composition/config.js';
import { buildL2 } from '../../src/composition/compose.js';

const l2 = await buildL2(loadConfig());
await l2.store.ready();
buildApplication(l2);
const cached = Object.keys(createRequire(import.meta.url).cache);
console.log(
  JSON.stringify({ mongodb: cached.filter((path) => path.includes('/node_modules/mongodb/')).length }),
);
process.exit(0);
