// Scenario 11's two services, started the same way so that only the transparency log differs: `with` is L2 as it
// runs (serve.ts's steps), `without` is the same L2 whose store keeps no log hashes and whose writes wait for no
// checkpoint. Usage: node --import tsx bench/l2-variant.ts with|without, with L2's environment (production, STORE,
// SECRETS_DIR, …). Prints {"port":…} once it listens; exits on SIGTERM.
import { once } from 'node:events';
import { applyServerLimits, createHttpServer } from '../src/adapters/http/http-server.js';
import { ed25519KeyPairFromPkcs8Pem, nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import { openSqliteStore } from '../src/adapters/persistence/sqlite/sqlite-driver.js';
import { sqlitePathIn } from '../src/adapters/persistence/sqlite/sqlite-url.js';
import { IGNORE_TRANSPARENCY } from '../src/application/ports/transparency-observer.js';
import { buildApplication } from '../src/composition/application.js';
import { composeL2 } from '../src/composition/compose.js';
import { loadConfig } from '../src/composition/config.js';

const variant = process.argv[2];
if (variant !== 'with' && variant !== 'without') throw new Error('usage: l2-variant.ts with|without');
const config = loadConfig();
if (config.store.kind !== 'sqlite') throw new Error('the variants run on SQLite');
const opened = openSqliteStore(sqlitePathIn(config.store.url), { transparencyLog: variant === 'with' });
const parts = composeL2(
  config,
  opened,
  variant === 'with'
    ? {}
    : {
        // Writes are answered without waiting for a checkpoint: what L2 did before the log.
        transparency: (p) => ({
          settings: {
            origin: config.tlog.origin,
            key: ed25519KeyPairFromPkcs8Pem(config.tlog.signingKeyPem),
            crypto: nodeSha256,
            verifyEd25519,
            pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
          },
          observer: IGNORE_TRANSPARENCY,
          problems: p.logger,
          coverage: { refuseUnlessConsistent: () => {}, cover: async () => undefined },
        }),
      },
);

await parts.store.ready();
const l2 = buildApplication(parts);
await l2.startBackground();
const server = createHttpServer(l2.listener);
applyServerLimits(server, config.http);
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, variant }));
process.once('SIGTERM', () =>
  server.close(() => {
    void l2.close().then(() => process.exit(0));
  }),
);
