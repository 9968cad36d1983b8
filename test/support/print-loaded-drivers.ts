// Builds the whole application on the store STORE names, as `npm start` would, then prints how many modules of the
// libraries loaded only on first use Node has loaded: {"mongodb": n, "webauthn": n, "qrcode": n} (the WebAuthn
// library is ESM; its ASN.1 dependencies, which hold most of its weight, are CommonJS and show in the cache). Run by test/composition/lazy-driver.test.ts in a
// process of its own, so that nothing the test runner loaded counts.
import { createRequire } from 'node:module';
import { buildApplication } from '../../src/composition/application.js';
import { loadConfig } from '../../src/composition/config.js';
import { buildL2 } from '../../src/composition/compose.js';

const l2 = await buildL2(loadConfig());
await l2.store.ready();
buildApplication(l2);
const cached = Object.keys(createRequire(import.meta.url).cache);
const loaded = (folder: string) => cached.filter((path) => path.includes(`/node_modules/${folder}/`)).length;
console.log(
  JSON.stringify({ mongodb: loaded('mongodb'), webauthn: loaded('@peculiar'), qrcode: loaded('qrcode') }),
);
process.exit(0);
