// A real HTTP server serving a tiled log at <url>/tlog/ that a test can swap, tamper with or take down: the log
// that misbehaves, for the monitors (`l2 tlog verify`, the L1 kit's watch) to catch.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Ed25519KeyPair } from '@l2/tlog';
import { MemoryTransparencyLog } from './memory-transparency-log.js';
import { testTlogKeyPair, testVerifierKey } from './tlog-test-key.js';

export class MisbehavingLogServer {
  url = '';
  origin = '';
  /** The log served now. */
  log!: MemoryTransparencyLog;
  /** A path whose last byte is flipped when served. */
  tampered: string | null = null;
  /** Answer 500 to everything (the log is down). */
  down = false;
  /** While set, every answer waits for it (a slow log). */
  hold: Promise<void> | null = null;
  readonly #server: Server = createServer((request, response) => {
    const path = (request.url ?? '').replace(/^\/tlog\//, '');
    if (this.down) return void response.writeHead(500).end();
    const log = this.log;
    Promise.resolve(this.hold)
      .then(() => log.fetch(path))
      .then(
        (bytes) => {
          if (bytes === null) return response.writeHead(404).end();
          const body = Buffer.from(bytes);
          if (path === this.tampered) body[body.length - 1] = body[body.length - 1]! ^ 1;
          response.writeHead(200).end(body);
        },
        () => response.writeHead(500).end(),
      );
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    this.origin = `${new URL(this.url).host}/tlog`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The verifier key of the test key under this server's origin. */
  get verifierKey(): string {
    return testVerifierKey(this.origin);
  }

  /** Serves from now on a signed log of `n` entries `<seed> <i>`: another seed is another history. */
  serve(n: number, seed: string, key: Ed25519KeyPair = testTlogKeyPair()): string {
    const entries = Array.from({ length: n }, (_, i) => new TextEncoder().encode(`${seed} ${i}`));
    this.log = new MemoryTransparencyLog(this.origin, key).append(...entries);
    this.tampered = null;
    this.down = false;
    return this.log.sign();
  }
}
