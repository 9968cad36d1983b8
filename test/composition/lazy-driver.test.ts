import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freshDatabase, postgresAvailable } from '../support/postgres-cluster.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const SCRIPT = fileURLToPath(new URL('../support/print-loaded-drivers.ts', import.meta.url));

describe('libraries loaded on first use: the MongoDB and PostgreSQL drivers, WebAuthn, QR codes', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-driver-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeTestTlogKey(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const store of ['sqlite', 'memory'] as const) {
    it(`a started service on ${store} has loaded none of them (about 20 + 30 + 10 MiB kept free)`, async () => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], {
        env: {
          ...process.env,
          STORE: store === 'sqlite' ? `sqlite:${join(dir, 'l2.sqlite')}` : 'memory:',
          SECRETS_DIR: dir,
          LOG_LEVEL: 'silent',
        },
      });
      expect(JSON.parse(stdout.trim().split('\n').pop()!)).to.deep.equal({
        mongodb: 0,
        postgres: 0,
        webauthn: 0,
        qrcode: 0,
      });
    });
  }

  it('a started service on PostgreSQL has loaded its driver and none of the others', async function () {
    if (!postgresAvailable()) this.skip();
    const scratch = await freshDatabase();
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], {
        env: { ...process.env, STORE: scratch.url, SECRETS_DIR: dir, LOG_LEVEL: 'silent' },
      });
      const loaded = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
      expect(loaded.postgres).to.be.greaterThan(0);
      expect({ ...loaded, postgres: 'loaded' }).to.deep.equal({
        mongodb: 0,
        postgres: 'loaded',
        webauthn: 0,
        qrcode: 0,
      });
    } finally {
      await scratch.drop();
    }
  });
});
