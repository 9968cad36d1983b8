// Issue 23, item 6: half-open requests (slowloris) are cut off, and idle connections cannot exhaust descriptors.
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** A TCP connection to the server, with what it has received and a promise of its close. */
async function open(
  server: TestServer,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received: () => text, closed };
}

/** Resolves when `promise` does, or fails the test after `ms`. */
const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms)),
  ]);

describe('connection limits of the listener', function () {
  let server: TestServer;
  afterEach(() => server.close());

  it('closes a connection whose headers never end within the header timeout (408)', async () => {
    server = await startTestServer({ env: { HTTP_HEADERS_TIMEOUT_SECONDS: '1' } });
    const { socket, received, closed } = await open(server);
    socket.write('GET /healthz HTTP/1.1\r\nHost: l2.test\r\nX-Slow: ');
    const started = Date.now();
    // The header timeout (1 s) plus at most one check interval (1 s).
    await within(closed, 4_000, 'the close');
    expect(Date.now() - started).to.be.at.least(900);
    expect(received()).to.match(/^HTTP\/1\.1 408/);
  });

  it('defaults to a 10-second header timeout and a cap below the descriptor limit', async () => {
    server = await startTestServer();
    expect(server.config.http.headersTimeoutMs).to.equal(10_000);
    expect(server.config.http.maxConnections).to.be.greaterThan(0);
    expect(server.config.http.maxConnections).to.be.lessThan(20_000);
  });

  it('closes connections beyond the cap as they arrive, and serves again once one ends', async () => {
    server = await startTestServer({ env: { HTTP_MAX_CONNECTIONS: '3' } });
    const held = await Promise.all([open(server), open(server), open(server)]);
    const fourth = await open(server);
    await within(fourth.closed, 4_000, 'the fourth connection’s close');
    expect(fourth.received()).to.equal('');

    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The server counts the ended connection once it has read its close; until then a new one may be turned away.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++)
      status = await fetch(`${server.url}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
    expect(status).to.equal(200);
    for (const { socket } of held) socket.destroy();
  });
});
