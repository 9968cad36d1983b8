// Builds the whole application on the store STORE names, as `npm start` would, then prints how many modules of the
// libraries loaded only on first use Node has loaded: {"mongodb": n, "postgres": n, "webauthn": n, "qrcode": n}.
// CommonJS modules show in require's cache; ECMAScript ones (postgres.js, the WebAuthn library) do not, so a module
// resolve hook registered before anything else is imported hears every module resolved. Run by
// test/composition/lazy-driver.test.ts in a process of its own, so that nothing the test runner loaded counts.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

// The hooks run on a thread of their own: each resolved URL is posted back; `flush` answers once all are sent.
const HOOKS = `
let port;
const urls = [];
export function initialize(data) {
  port = data.port;
  port.on('message', () => port.postMessage(urls));
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  urls.push(resolved.url);
  return resolved;
}`;
const { port1, port2 } = new MessageChannel();
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
  data: { port: port2 },
  transferList: [port2],
});

const { buildApplication } = await import('../../src/composition/application.js');
const { loadConfig } = await import('../../src/composition/config.js');
const { buildL2 } = await import('../../src/composition/compose.js');

const l2 = await buildL2(loadConfig());
await l2.store.ready();
buildApplication(l2);
const resolved = await new Promise<string[]>((resolve) => {
  port1.once('message', resolve);
  port1.postMessage('flush');
});
const modules = [...Object.keys(createRequire(import.meta.url).cache), ...resolved];
const loaded = (folder: string) => modules.filter((path) => path.includes(`/node_modules/${folder}/`)).length;
console.log(
  JSON.stringify({
    mongodb: loaded('mongodb'),
    postgres: loaded('postgres'),
    webauthn: loaded('@peculiar'),
    qrcode: loaded('qrcode'),
  }),
);
process.exit(0);
