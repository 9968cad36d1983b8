import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ed25519KeyPairFromPkcs8Pem,
  generateEd25519Pkcs8Pem,
  nodeSha256 as crypto,
} from '@l2/tlog/node-crypto';
import { encodeBase64, treeHash } from '@l2/tlog';
import { goCheckAvailable, goEnvironment } from '../support/go-toolchain.js';
import { MemoryTransparencyLog } from '../support/memory-transparency-log.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { appendActivities } from '../contract/transparency-log.contract.js';

const run = promisify(execFile);
const SIZE = 70_000;
const INDEXES = [0, 1, 255, 256, 257, 65_535, 65_536, 69_887, 69_888, SIZE - 1];
const OLD_SIZES = [1, 2, 255, 256, 257, 65_535, 65_536, 65_537, 69_888, SIZE - 1];

/**
 * The log built by L2's code (right-edge append, kept hashes, tiles, bundles, signed checkpoint),
 * served over HTTP and checked by golang.org/x/mod/sumdb's tlog and note packages
 * (test/tlog-go/main.go): the same root, proofs and signature, computed by code L2 did not write.
 */
describe('transparency log: checked by golang.org/x/mod/sumdb (Go)', function () {
  this.timeout(180_000);
  let binary = '';
  let workDir = '';
  let server: Server | undefined;
  let baseUrl = '';
  let oldRoots = '';
  /** A tile path whose served bytes get one bit flipped, to see the check fail. */
  let tampered: string | null = null;

  before(async function () {
    if (!goCheckAvailable()) return this.skip();
    workDir = mkdtempSync(join(tmpdir(), 'l2-tlog-go-'));
    binary = join(workDir, 'tlog-go');
    await run('go', ['build', '-o', binary, './test/tlog-go'], { env: goEnvironment() });

    const log = new MemoryTransparencyLog(
      '127.0.0.1/tlog',
      ed25519KeyPairFromPkcs8Pem(generateEd25519Pkcs8Pem()),
    );
    for (let i = 0; i < SIZE; i++) log.append(randomBytes(randomInt(0, 400)));
    log.sign();
    const roots = await Promise.all(OLD_SIZES.map((size) => treeHash(crypto, log.reader, size)));
    oldRoots = OLD_SIZES.map((size, i) => `${size}=${encodeBase64(roots[i]!)}`).join(',');

    server = createServer((request, response) => {
      const path = (request.url ?? '').replace(/^\/tlog\//, '');
      const answer =
        path === 'key' ? Promise.resolve(new TextEncoder().encode(log.verifierKey)) : log.fetch(path);
      answer.then(
        (bytes) => {
          if (bytes === null) return response.writeHead(404).end();
          const body = Buffer.from(bytes);
          if (path === tampered) body[40] = body[40]! ^ 0x01;
          response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
        },
        () => response.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tlog`;
  });

  after(async () => {
    if (server) await new Promise((resolve) => server!.close(resolve));
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  const check = () => run(binary, ['-indexes', INDEXES.join(','), '-old', oldRoots, baseUrl]);

  it('opens the checkpoint, rebuilds the root from the tiles, checks inclusion and consistency proofs', async () => {
    tampered = null;
    const { stdout } = await check();
    expect(stdout).to.match(
      new RegExp(
        `^ok size=${SIZE} root=\\S+ inclusion=${INDEXES.length} consistency=${OLD_SIZES.length}\\n$`,
      ),
    );
  });

  for (const path of ['tile/0/000', 'tile/1/000', 'tile/0/273.p/112', 'tile/entries/000', 'checkpoint']) {
    it(`fails when one bit of ${path} is flipped`, async () => {
      tampered = path;
      const failure = await check().then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure, 'the Go check passed a tampered log').to.not.equal(null);
      expect(failure!.code).to.equal(1);
      expect(failure!.stderr).to.contain('tlog-go: FAIL:');
      if (process.env.TLOG_GO_VERBOSE) console.log(`      ${failure!.stderr.trim()}`);
    });
  }
});

/**
 * The same check against the real service: L2's stores, routes and checkpoints (a memory store holding 70,000
 * activities, covered by a checkpoint the service signed), read over HTTP by the Go code.
 */
describe('the running service, checked by golang.org/x/mod/sumdb (Go)', function () {
  this.timeout(300_000);
  let binary = '';
  let workDir = '';
  let server: TestServer | undefined;
  let oldRoots = '';

  before(async function () {
    if (!goCheckAvailable()) return this.skip();
    workDir = mkdtempSync(join(tmpdir(), 'l2-tlog-go-service-'));
    binary = join(workDir, 'tlog-go');
    const building = run('go', ['build', '-o', binary, './test/tlog-go'], { env: goEnvironment() });
    server = await startTestServer({ store: 'memory' });
    await appendActivities(server.parts.store, SIZE);
    await server.parts.services.transparencyLog.cover(SIZE);
    const reader = server.parts.services.transparencyLog.reader;
    const roots = await Promise.all(OLD_SIZES.map((size) => treeHash(crypto, reader, size)));
    oldRoots = OLD_SIZES.map((size, i) => `${size}=${encodeBase64(roots[i]!)}`).join(',');
    await building;
  });

  after(async () => {
    await server?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('opens its checkpoint with /tlog/key, rebuilds the root from its tiles, checks inclusion and consistency', async () => {
    const { stdout } = await run(binary, [
      '-indexes',
      INDEXES.join(','),
      '-old',
      oldRoots,
      `${server!.url}/tlog`,
    ]);
    expect(stdout).to.match(
      new RegExp(
        `^ok size=${SIZE} root=\\S+ inclusion=${INDEXES.length} consistency=${OLD_SIZES.length}\\n$`,
      ),
    );
  });
});
