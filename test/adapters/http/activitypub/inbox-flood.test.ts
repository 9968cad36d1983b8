// Issue 23, item 1: a flood of inbox requests naming invented keys on servers that accept connections and never
// answer must not lock an honest peer out — during the flood or after it.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { client, registerUser } from '../../../support/http.js';
import { FedifyPeer } from '../../../support/fedify-peer.js';
import type { TestServer } from '../../../support/test-server.js';
import { startServer, type Api } from '../registry/support.js';

/**
 * A server that accepts connections and never answers: what each invented key id points at. `requests` counts the
 * requests it was sent.
 */
async function silentServer(sockets: Set<Socket>, requests: { count: number }): Promise<Server> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('data', (data) => {
      requests.count += data.toString('latin1').match(/^GET /gm)?.length ?? 0;
    });
  });
  // Another loopback address than the honest peer's 127.0.0.1: another machine, as far as L2 can tell.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return server;
}

describe('the inbox under a flood of invented key ids', function () {
  let server: TestServer;
  let api: Api;
  let peer: FedifyPeer;
  let silent: Server[];
  const sockets = new Set<Socket>();
  const requests = { count: 0 };

  beforeEach(async () => {
    server = await startServer('memory', { publicUrlIsServer: true, env: { TRUST_PROXY: 'true' } });
    api = client(server.url);
    await registerUser(server.url, 'alice');
    peer = await FedifyPeer.start();
    silent = await Promise.all(Array.from({ length: 20 }, () => silentServer(sockets, requests)));
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    requests.count = 0;
    await Promise.all(silent.map((s) => new Promise((resolve) => s.close(resolve))));
    await server.close();
    await peer.close();
  });

  /** A Follow that names an invented key on one of the silent servers, with a signature nobody made. */
  function invented(n: number): Promise<Response> {
    const port = (silent[n % silent.length]!.address() as AddressInfo).port;
    const actor = `http://127.0.0.2:${port}/users/x${n}`;
    const body = JSON.stringify({
      id: `${actor}#follows/${n}`,
      type: 'Follow',
      actor,
      object: `${server.url}/users/alice`,
    });
    return fetch(`${server.url}/inbox`, {
      method: 'POST',
      headers: {
        'content-type': 'application/activity+json',
        date: new Date().toUTCString(),
        digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
        signature: `keyId="${actor}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"`,
        // Many client addresses, so that only the budget per destination can hold the flood.
        'x-forwarded-for': `198.51.100.${n % 200}`,
      },
      body,
    });
  }

  const honestFollow = () =>
    peer.send(`${server.url}/inbox`, peer.follow(`${server.url}/users/alice`), {
      headers: { 'x-forwarded-for': '203.0.113.5' },
    });

  it('accepts an honest Follow while 300 requests name keys on servers that never answer, and after', async () => {
    const flood = Array.from({ length: 300 }, (_, n) => invented(n));
    while (requests.count < 2) await new Promise((resolve) => setTimeout(resolve, 10));

    const during = await honestFollow();
    expect(during.status, await during.text()).to.equal(202);
    // The flood stops: the machine behind the invented keys goes away.
    const fetchesDuringFlood = requests.count;
    for (const socket of sockets) socket.destroy();
    await Promise.all(silent.map((s) => new Promise((resolve) => s.close(resolve))));

    const answers = await Promise.all(flood);
    const statuses = answers.map((r) => r.status);
    // At most 2 fetches at once went to the silent machine (2 more waited); while it stood, the rest were turned
    // away at once and told to come back later (503). Those that asked it — and, once it went away, those that
    // found its ports closed — got what any unanswered key gets: 401.
    const turnedAway = answers.filter((r) => r.status === 503);
    const unanswered = statuses.filter((s) => s === 401).length;
    expect(turnedAway.length + unanswered, `503 or 401 only: ${statuses}`).to.equal(300);
    expect(
      turnedAway.length,
      'requests beyond its slots were turned away while the machine stood',
    ).to.be.above(0);
    expect(turnedAway.every((r) => Number(r.headers.get('retry-after')) > 0)).to.equal(true);
    expect(fetchesDuringFlood).to.equal(2);

    const after = await peer.send(
      `${server.url}/users/alice/inbox`,
      peer.follow(`${server.url}/users/alice`),
      {
        headers: { 'x-forwarded-for': '203.0.113.5' },
      },
    );
    expect(after.status, 'not locked out after the flood').to.equal(202);
    const followers = await api.get('/users/alice/followers?page=true', {
      headers: { accept: 'application/activity+json' },
    });
    expect(followers.json.orderedItems).to.deep.equal([peer.actorId]);

    const metrics = await api.get('/metrics');
    expect(metrics.text).to.include(`l2_inbox_refusals_total{reason="unavailable"} ${turnedAway.length}`);
    expect(metrics.text).to.include(`l2_inbox_refusals_total{reason="key_unreachable"} ${unanswered}`);
  });
});
