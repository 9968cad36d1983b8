import { expect } from 'chai';
import express from 'express';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createL1Kit, type L1Kit, type LogoutNotice } from '../src/index.js';
import { routes as expressRoutes } from '../src/adapters/express.js';
import { routes } from '../src/adapters/node.js';
import { sha256, StandInL2, TestClock } from './support/stand-in-l2.js';
import { TestServer } from './support/servers.js';

const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  key.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('l1-kit document mode: a Client ID Metadata Document client (API.md §2.5)', () => {
  let clock: TestClock;
  let l2: StandInL2;
  let l1: TestServer;
  let notices: LogoutNotice[];
  let dir: string;

  beforeEach(async () => {
    clock = new TestClock();
    l2 = await new StandInL2({ now: clock.now }).start();
    l1 = await new TestServer().start();
    notices = [];
    dir = mkdtempSync(join(tmpdir(), 'l1-kit-document-'));
  });
  afterEach(async () => {
    await l1.stop();
    await l2.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Mounts the kit's routes (node:http adapter) on the L1 server. */
  function mount(kit: L1Kit): L1Kit {
    const handle = routes(kit, { onLogout: (notice) => void notices.push(notice) });
    l1.handler = (req, res) => void handle(req, res).then((handled) => handled || res.writeHead(404).end());
    return kit;
  }
  const documentKit = (client: Parameters<typeof createL1Kit>[0]['client'] = {}) =>
    mount(
      createL1Kit({
        l2: l2.url,
        self: l1.url,
        now: clock.now,
        client: { keyFile: join(dir, 'key.pem'), ...client },
      }),
    );
  const postForm = (body: string) =>
    fetch(`${l1.url}/auth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });

  it('serves its document at <self>/auth/client.json: its client_id, callback, notice route and public key', async () => {
    const kit = documentKit({ name: 'Render Studio', uri: 'https://render.example/about' });
    const answer = await fetch(`${l1.url}/auth/client.json`);

    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.equal('application/json');
    expect(answer.headers.get('cache-control')).to.equal('public, max-age=600');
    const document = (await answer.json()) as Record<string, unknown> & {
      jwks: { keys: Record<string, unknown>[] };
    };
    expect(kit.clientId).to.equal(`${l1.url}/auth/client.json`);
    expect(document).to.deep.include({
      client_id: `${l1.url}/auth/client.json`,
      client_name: 'Render Studio',
      client_uri: 'https://render.example/about',
      redirect_uris: [`${l1.url}/auth/callback`],
      backchannel_logout_uri: `${l1.url}/auth/revoke`,
      token_endpoint_auth_method: 'private_key_jwt',
    });
    expect(document.jwks.keys).to.have.length(1);
    expect(document.jwks.keys[0]).to.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(document.jwks.keys[0]).to.not.have.property('d'); // never the private half
    expect(document).to.not.have.property('client_secret');
  });

  it('keeps the key it generated: a second start serves the same key, from a file only its owner can read', async () => {
    const first = (await documentKit().clientDocument()) as { jwks: unknown };
    const again = (await documentKit().clientDocument()) as { jwks: unknown };
    expect(again.jwks).to.deep.equal(first.jwks);
    expect(readFileSync(join(dir, 'key.pem'), 'utf8')).to.match(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('takes an RSA key of 2048 bits or more, and refuses a key L2 would not accept, or none', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const kit = createL1Kit({ l2: l2.url, self: l1.url, client: { key: pem(rsa) } });
    const keys = ((await kit.clientDocument()) as { jwks: { keys: Record<string, unknown>[] } }).jwks.keys;
    expect(keys[0]).to.include({ kty: 'RSA', alg: 'RS256' });

    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    expect(() => createL1Kit({ l2: l2.url, self: l1.url, client: { key: p384 } })).to.throw(
      TypeError,
      /EC P-256 or RSA/,
    );
    expect(() => createL1Kit({ l2: l2.url, self: l1.url, client: {} })).to.throw(
      TypeError,
      /key and keyFile/,
    );
    expect(() => createL1Kit({ l2: l2.url, self: l1.url, client: { key: 'not a key' } })).to.throw(TypeError);
  });

  it('receives a form-encoded logout_token, checked as a JSON notice is, with its aud the client_id', async () => {
    const kit = documentKit();
    const token = await l2.issue('alice', { l1: kit.clientId, sid: 'session-1' });
    l2.revoke(token);

    const answer = await postForm(
      new URLSearchParams({ logout_token: await l2.logoutToken(token) }).toString(),
    );

    expect(answer.status).to.equal(204);
    expect(notices.map((n) => [n.username, n.tokenHash, n.sid])).to.deep.equal([
      ['alice', sha256(token), 'session-1'],
    ]);
  });

  it('refuses a form notice that is forged, for another audience, repeated or without a logout_token (400, no hook)', async () => {
    const kit = documentKit();
    const mine = await l2.issue('alice', { l1: kit.clientId });
    const other = await l2.issue('alice', { l1: l1.url }); // scoped to self: not who this kit is in document mode
    const forged = (await l2.logoutToken(mine)).replace(/\.[^.]+$/, '.AAAA');
    const bodies = [
      new URLSearchParams({ logout_token: forged }),
      new URLSearchParams({ logout_token: await l2.logoutToken(other) }),
      new URLSearchParams([
        ['logout_token', await l2.logoutToken(mine)],
        ['logout_token', await l2.logoutToken(mine)],
      ]),
      new URLSearchParams({ token_hash: sha256(mine) }),
    ];
    for (const body of bodies)
      expect((await postForm(body.toString())).status, body.toString()).to.equal(400);
    expect(notices).to.deep.equal([]);
  });

  it('still takes JSON notices, and verifies tokens as the client_id', async () => {
    const kit = documentKit();
    const token = await l2.issue('alice', { l1: kit.clientId });
    expect((await kit.verify(token)).l1Server).to.equal(kit.clientId);
    expect(l2.verifyBodies).to.deep.equal([{ token, l1_server: kit.clientId }]);
    l2.revoke(token);
    const answer = await fetch(`${l1.url}/auth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await l2.notice(token)),
    });
    expect(answer.status).to.equal(204);
    expect(notices).to.have.length(1);
  });

  it('takes a form notice that a body parser read first (Express urlencoded)', async () => {
    const kit = createL1Kit({ l2: l2.url, self: l1.url, now: clock.now });
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    app.use(expressRoutes(kit, { onLogout: (notice) => void notices.push(notice) }));
    l1.handler = app;
    const token = await l2.issue('alice', { l1: l1.url });
    const answer = await postForm(
      new URLSearchParams({ logout_token: await l2.logoutToken(token) }).toString(),
    );
    expect(answer.status).to.equal(204);
    expect(notices).to.have.length(1);
  });

  it('without the client option, is what it was: no document, client_id = self', async () => {
    const kit = mount(createL1Kit({ l2: l2.url, self: l1.url, now: clock.now }));
    expect(kit.clientId).to.equal(l1.url);
    expect(kit.clientDocument()).to.equal(undefined);
    expect((await fetch(`${l1.url}/auth/client.json`)).status).to.equal(404);
  });
});
