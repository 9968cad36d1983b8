import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { applyServerLimits, createHttpServer } from '../../src/adapters/http/http-server.js';
import { buildApplication, type L2Application } from '../../src/composition/application.js';
import { loadConfig, type Config } from '../../src/composition/config.js';
import { buildL2, type L2Parts, type Overrides } from '../../src/composition/compose.js';
import { writeIdTokenKey } from './id-token-key.js';
import { writeNoticeKey } from './notice-key.js';
import { dropTestDatabase, testStore } from './test-store.js';
import { writeTestTlogKey } from './tlog-test-key.js';

/** The JWT secret every test server uses, so tests can forge and mint tokens with it. */
export const TEST_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
export const TEST_PUBLIC_URL = 'http://l2.test';

export interface TestServer {
  /** Base URL of the real listening server, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly config: Config;
  /** Every part of the running service (its store, use-cases, clock…). */
  readonly parts: L2Parts;
  readonly l2: L2Application;
  /** The temporary directory holding the secret (and the SQLite file for `sqlite`). */
  readonly dir: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /**
   * The store the test needs at least (memory by default). With L2_TEST_STORE=postgres every test server runs on a
   * fresh PostgreSQL database instead (see test-store.ts), unless the test names STORE in `env`.
   */
  readonly store?: 'memory' | 'sqlite';
  /**
   * The test reaches into the store's own objects (a memory store's maps, the SQLite handle): it runs on the store
   * it asks for, whatever L2_TEST_STORE says.
   */
  readonly storeInternals?: boolean;
  /** Extra environment values, as an operator would set them. */
  readonly env?: Record<string, string>;
  /** Parts made the test's way (a fixed clock, a failing store, …), each typed like the part it replaces. */
  readonly override?: Overrides;
  /** Start the notice worker and cleanup (default true). */
  readonly background?: boolean;
  /** Reuse a directory (to restart on the same SQLite file). */
  readonly dir?: string;
  /**
   * Make PUBLIC_URL the server's real address (for a browser that follows absolute links, or a peer); `'localhost'`
   * names it `http://localhost:<port>` — WebAuthn refuses an IP address as a relying party id.
   */
  readonly publicUrlIsServer?: boolean | 'localhost';
  /** Listen on this port (to restart a server at the same address); an ephemeral one by default. */
  readonly port?: number;
}

/** Starts a real L2 server on an ephemeral port, with a test secret and bcrypt cost 4. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'l2-test-'));
  // Listen first, so PUBLIC_URL can be the real address when a browser must follow absolute links.
  const server: Server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, 'jwt_secret'), `${TEST_SECRET}\n`);
  // Kept across a restart on the same directory, as an operator's key file is.
  if (!existsSync(join(dir, 'notice_signing_key'))) writeNoticeKey(dir);
  if (!existsSync(join(dir, 'id_token_signing_key'))) writeIdTokenKey(dir);
  writeTestTlogKey(dir);
  const config = loadConfig({
    NODE_ENV: 'test',
    SECRETS_DIR: dir,
    STORE: await testStore(options.store, dir, options.storeInternals === true),
    BCRYPT_COST: '4',
    PUBLIC_URL:
      options.publicUrlIsServer === 'localhost'
        ? `http://localhost:${port}`
        : options.publicUrlIsServer
          ? url
          : TEST_PUBLIC_URL,
    LOG_LEVEL: 'silent',
    QUEUE_POLL_INTERVAL_MS: '50',
    NOTICE_RETRY_FIRST_DELAY_MS: '50',
    // Fake L1 servers and peers listen on loopback; tests of the address rules set it back to false.
    L1_ALLOW_PRIVATE: 'true',
    // Tests register many users from one address and write many assets; the limits' own tests lower them.
    REGISTRATIONS_PER_ADDRESS: '100000',
    ASSET_WRITES_PER_USER: '100000',
    // Peers on 127.0.0.1 are one origin whose one actor follows many times; the inbox limits' own tests lower these.
    FOLLOWS_PER_ACTOR: '100000',
    FOLLOWS_PER_ORIGIN: '100000',
    ...options.env,
  });
  applyServerLimits(server, config.http);
  const parts = await buildL2(config, options.override);
  await parts.store.ready();
  const l2 = buildApplication(parts);
  if (options.background !== false) await l2.startBackground();
  server.on('request', l2.listener);
  let closed = false;
  return {
    url,
    config,
    parts,
    l2,
    dir,
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await l2.close();
      if (!options.dir) {
        rmSync(dir, { recursive: true, force: true });
        await dropTestDatabase(dir);
      }
    },
  };
}
