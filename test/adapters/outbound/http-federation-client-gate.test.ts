// The outbound client and the operator's domain rules (API.md §4.3): nothing is fetched from or delivered to a domain
// a rule shuts out — no request made, nothing served from the cache, no redirect followed there.
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFederationClient } from '../../../src/adapters/outbound/http-federation-client.js';
import { OutboundHttp } from '../../../src/adapters/outbound/outbound-request.js';
import type { FederationGate } from '../../../src/application/ports/federation-gate.js';
import { LoopbackOnly } from '../../support/loopback-peer.js';

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const key = { keyId: 'https://l2.example/users/alice#main-key', privateKeyPem: privateKey };

describe('HTTP federation client: domain rules', () => {
  let server: Server;
  let port: number;
  let seen: IncomingMessage[];
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Hostnames the fake gate shuts out. */
  const shut = new Set<string>();
  const gate: FederationGate = {
    federatesWith: async (urls) => urls.every((url) => !shut.has(new URL(url).hostname)),
    federatesWithRecently: async (url) => !shut.has(new URL(url).hostname),
  };
  const client = () =>
    new HttpFederationClient(
      new OutboundHttp(new LoopbackOnly(), 'L2-test'),
      async () => ({ keyId: 'https://l2.example/actor#main-key', privateKeyPem: privateKey }),
      { now: () => new Date() },
      { gate },
    );
  const at = (hostname: string, path: string) => `http://${hostname}:${port}${path}`;

  beforeEach(async () => {
    seen = [];
    shut.clear();
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    handler = (req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/activity+json' })
        .end(JSON.stringify({ id: `http://${req.headers.host}${req.url}`, type: 'Person' }));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches nothing from a domain shut out, and serves nothing cached from before the rule', async () => {
    const federation = client();
    const url = at('127.0.0.1', '/users/bob');
    expect((await federation.fetchDocument(url)).ok).to.equal(true);
    shut.add('127.0.0.1');

    expect(await federation.fetchDocument(url)).to.deep.include({ ok: false, retryable: false });
    expect(await federation.fetchDocument(at('127.0.0.1', '/users/carol'))).to.deep.include({ ok: false });
    expect(seen).to.have.length(1);

    shut.clear();
    expect((await federation.fetchDocument(at('127.0.0.1', '/users/carol'))).ok).to.equal(true);
  });

  it('follows no redirect to a domain shut out', async () => {
    shut.add('localhost');
    handler = (_req, res) => res.writeHead(302, { location: at('localhost', '/users/bob') }).end();

    expect(await client().fetchDocument(at('127.0.0.1', '/start'))).to.deep.include({
      ok: false,
      retryable: false,
    });
    expect(seen.map((req) => req.url)).to.deep.equal(['/start']);
  });

  it('drops a delivery to a domain shut out without a request: done, not retried', async () => {
    shut.add('127.0.0.1');
    handler = (_req, res) => res.writeHead(202).end();

    expect(await client().deliver(at('127.0.0.1', '/inbox'), { type: 'Create' }, key)).to.deep.include({
      kind: 'dropped',
    });
    expect(seen).to.deep.equal([]);
  });
});
