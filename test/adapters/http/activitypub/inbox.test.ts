// The inbox's other doors (RFC 9421, GoToSocial's hs2019 and key documents), its input rules, the service actor,
// and delivery through restarts and outages — all against real peers on 127.0.0.1.
import { createHash, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { cavage, httpbis } from 'http-message-signatures';
import { FedifyPeer } from '../../../support/fedify-peer.js';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import { AP_ACCEPT, createAsset, expectProblem, startServer, type Api } from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('inbox', function () {
  let server: TestServer;
  let api: Api;
  let alice: string;
  let aliceActor: string;
  let peer: FedifyPeer;

  const followerCount = async (): Promise<number> =>
    (await api.get('/users/alice/followers', { headers: { accept: AP_ACCEPT } })).json.totalItems;

  /** A directory the test owns, so the SQLite file outlives a server that is stopped and started again. */
  let dir: string;
  /** Stops the server and starts another on the same file and address. */
  async function restart(options: { background?: boolean } = {}): Promise<void> {
    const port = Number(new URL(server.url).port);
    await server.close();
    server = await startServer('sqlite', { publicUrlIsServer: true, dir, port, ...options });
    api = client(server.url);
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'l2-inbox-'));
    server = await startServer('sqlite', { publicUrlIsServer: true, dir });
    api = client(server.url);
    alice = await registerUser(server.url, 'alice');
    aliceActor = `${server.url}/users/alice`;
    peer = await FedifyPeer.start();
  });
  afterEach(async () => {
    await server.close();
    await peer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('other signature forms', () => {
    it('accepts a Follow signed with RFC 9421 HTTP Message Signatures (Content-Digest, as Mastodon 4.5 sends)', async () => {
      const inbox = `${server.url}/users/alice/inbox`;
      const follow = peer.follow(aliceActor);
      const body = JSON.stringify(follow);
      const key = await peer.privateKeyObject();
      const digest = createHash('sha256').update(body).digest('base64');
      const signed = await httpbis.signMessage(
        {
          key: { id: peer.keyId, alg: 'rsa-v1_5-sha256', sign: async (data) => sign('sha256', data, key) },
          fields: ['@method', '@target-uri', 'content-digest', 'content-type'],
          params: ['keyid', 'alg', 'created'],
        },
        {
          method: 'POST',
          url: inbox,
          headers: { 'content-type': 'application/activity+json', 'content-digest': `sha-256=:${digest}:` },
        },
      );

      const response = await fetch(inbox, {
        method: 'POST',
        headers: signed.headers as Record<string, string>,
        body,
      });

      expect(response.status, await response.text()).to.equal(202);
      await peer.waitFor((r) => r.body.type === 'Accept' && r.body.object.id === follow.id);
      expect(await followerCount()).to.equal(1);
    });

    it('refuses an RFC 9421 signature whose Content-Digest does not match the body', async () => {
      const inbox = `${server.url}/inbox`;
      const body = JSON.stringify(peer.follow(aliceActor));
      const key = await peer.privateKeyObject();
      const signed = await httpbis.signMessage(
        {
          key: { id: peer.keyId, alg: 'rsa-v1_5-sha256', sign: async (data) => sign('sha256', data, key) },
          fields: ['@method', '@target-uri', 'content-digest'],
          params: ['keyid', 'alg', 'created'],
        },
        {
          method: 'POST',
          url: inbox,
          headers: {
            'content-type': 'application/activity+json',
            'content-digest': `sha-256=:${createHash('sha256').update('other').digest('base64')}:`,
          },
        },
      );

      const response = await fetch(inbox, {
        method: 'POST',
        headers: signed.headers as Record<string, string>,
        body,
      });

      expect(response.status).to.equal(401);
      expect(await followerCount()).to.equal(0);
    });

    it('accepts hs2019 with a key document of its own (GoToSocial: …/main-key, owner listing it)', async () => {
      const gts = await FedifyPeer.start({ keyDocument: true });
      try {
        const inbox = `${server.url}/users/alice/inbox`;
        const follow = gts.follow(aliceActor);
        const body = JSON.stringify(follow);
        const key = await gts.privateKeyObject();
        const signed = await cavage.signMessage(
          {
            key: { id: gts.keyId, sign: async (data) => sign('sha256', data, key) },
            fields: ['@request-target', 'host', 'date', 'digest'],
            params: ['keyid', 'alg'],
            paramValues: { alg: 'rsa-pss-sha512' }, // written as algorithm="hs2019"
          },
          {
            method: 'POST',
            url: inbox,
            headers: {
              host: new URL(inbox).host,
              date: new Date().toUTCString(),
              digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
              'content-type': 'application/activity+json',
            },
          },
        );
        expect(String((signed.headers as Record<string, string>).Signature)).to.include('algorithm="hs2019"');

        const response = await fetch(inbox, {
          method: 'POST',
          headers: signed.headers as Record<string, string>,
          body,
        });

        expect(response.status, await response.text()).to.equal(202);
        await gts.waitFor((r) => r.body.type === 'Accept');
      } finally {
        await gts.close();
      }
    });
  });

  describe('keys', () => {
    it('fetches a key again when a signature fails with the kept one (the peer rotated it), at most once a minute', async () => {
      await peer.send(`${server.url}/inbox`, peer.follow(aliceActor));
      const fetchesBefore = peer.actorFetchedBy.length;
      await peer.rotateKey();

      const rotated = await peer.send(`${server.url}/inbox`, peer.follow(aliceActor));

      expect(rotated.status, await rotated.text()).to.equal(202);
      expect(peer.actorFetchedBy.length, 'one fetch of the new key').to.equal(fetchesBefore + 1);

      // A forged signature under the same key id fails against the new key and is not worth another fetch.
      await peer.rotateKey();
      const forged = await peer.send(`${server.url}/inbox`, peer.follow(aliceActor));
      const forgedAgain = await peer.send(`${server.url}/inbox`, peer.follow(aliceActor));
      expect([forged.status, forgedAgain.status]).to.deep.equal([401, 401]);
      expect(peer.actorFetchedBy.length, 'no second fetch within the minute').to.equal(fetchesBefore + 1);
    });
  });

  describe('input rules', () => {
    const post = (path: string, body: string, type = 'application/activity+json') =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });

    it('takes application/ld+json with any profile, and refuses other types with 415', async () => {
      const ld = await peer.send(`${server.url}/inbox`, peer.follow(aliceActor), {
        headers: { 'content-type': 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' },
      });
      expect(ld.status, await ld.text()).to.equal(202);

      for (const path of ['/inbox', '/Inbox/', '/users/alice/INBOX', '/users/alice/inbox/']) {
        for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
          const response = await post(path, JSON.stringify(peer.follow(aliceActor)), type);
          expect(response.status, `${path} ${type}`).to.equal(415);
          expect(((await response.json()) as Json).code).to.equal('unsupported_media_type');
        }
      }
    });

    it('refuses a body over 256 KiB with 413, and takes one just under it', async () => {
      const padding = (size: number) => ({ ...peer.follow(aliceActor), content: 'x'.repeat(size) });
      const over = await peer.send(`${server.url}/inbox`, padding(256 * 1024));
      expect(over.status).to.equal(413);
      expect(((await over.json()) as Json).code).to.equal('payload_too_large');

      const under = await peer.send(`${server.url}/inbox`, padding(250 * 1024));
      expect(under.status, await under.text()).to.equal(202);
    });

    it('answers 400 to malformed JSON, JSON that is not an object, and an activity without type or actor', async () => {
      for (const body of [
        '{"type":',
        '[1,2]',
        '"Follow"',
        '{"actor":"https://x.example/u"}',
        '{"type":"Follow"}',
        '{"type":"Follow","actor":"not a url"}',
      ]) {
        const response = await post('/inbox', body);
        expect(response.status, body).to.equal(400);
        expect(((await response.json()) as Json).code).to.equal('invalid_request');
      }
      expect(await followerCount()).to.equal(0);
    });

    it('answers 404 for the inbox of a user who does not exist', async () => {
      const response = await peer.send(
        `${server.url}/users/nobody/inbox`,
        peer.follow(`${server.url}/users/nobody`),
      );
      const body = (await response.json()) as Json;
      expect(response.status).to.equal(404);
      expect(body.code).to.equal('not_found');
    });

    it('ignores (202) a Follow of someone who is not a local user, storing nothing', async () => {
      const response = await peer.send(
        `${server.url}/inbox`,
        peer.follow('https://elsewhere.example/users/x'),
      );
      expect(response.status).to.equal(202);
      expect(await followerCount()).to.equal(0);
    });

    it('ignores an Undo of a Follow the actor never made, and one made by somebody else', async () => {
      await peer.send(`${server.url}/inbox`, peer.follow(aliceActor));
      const undo = (object: Json) => ({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${peer.actorId}/undo/${Math.random()}`,
        type: 'Undo',
        actor: peer.actorId,
        object,
      });

      for (const object of [
        'https://x.example/never',
        { type: 'Follow', actor: 'https://x.example/u', object: aliceActor },
      ]) {
        const response = await peer.send(`${server.url}/inbox`, undo(object));
        expect(response.status).to.equal(202);
      }
      expect(await followerCount()).to.equal(1);
    });
  });

  describe('the service actor', () => {
    it('serves /actor as an Application with its own key, found by webfinger as @host@domain', async () => {
      const actor = await api.get('/actor', { headers: { accept: AP_ACCEPT } });
      expect(actor.status).to.equal(200);
      expect(actor.json).to.deep.include({
        id: `${server.url}/actor`,
        type: 'Application',
        inbox: `${server.url}/inbox`,
      });
      expect(actor.json.publicKey).to.deep.include({
        id: `${server.url}/actor#main-key`,
        owner: `${server.url}/actor`,
      });
      expect(actor.json.publicKey.publicKeyPem).to.match(/^-----BEGIN PUBLIC KEY-----/);

      const host = new URL(server.url);
      const finger = await api.get(`/.well-known/webfinger?resource=acct:${host.hostname}@${host.host}`);
      expect(finger.status).to.equal(200);
      expect(finger.json.links).to.deep.include({
        rel: 'self',
        type: 'application/activity+json',
        href: `${server.url}/actor`,
      });
    });

    it('keeps its key across restarts', async () => {
      const before = (await api.get('/actor', { headers: { accept: AP_ACCEPT } })).json.publicKey
        .publicKeyPem;
      const { port } = new URL(server.url);
      await server.close();
      server = await startServer('sqlite', { publicUrlIsServer: true, dir: server.dir, port: Number(port) });
      api = client(server.url);

      expect(
        (await api.get('/actor', { headers: { accept: AP_ACCEPT } })).json.publicKey.publicKeyPem,
      ).to.equal(before);
    });
  });

  describe('delivery through outages', () => {
    async function followed(): Promise<void> {
      await peer.send(`${server.url}/inbox`, peer.follow(aliceActor));
      await peer.waitFor((r) => r.body.type === 'Accept');
    }

    it('delivers after the peer recovers from answering 500', async () => {
      await followed();
      peer.answer = 500;
      const attemptsBefore = peer.attempts;

      const created = await createAsset(api, alice, 'sunset');
      await peer.waitForAttempts(attemptsBefore + 2);
      peer.answer = 202;

      const delivered = await peer.waitFor((r) => r.body.type === 'Create');
      expect(delivered.body.id).to.equal(created.activity.id);
      expect(delivered.httpSignedBy).to.equal(`${aliceActor}#main-key`);
    });

    it('delivers what was queued before a restart once the server is back', async () => {
      // A process that queued an Accept and a Create and stopped before sending them (its worker never ran).
      const { port } = new URL(server.url);
      await server.close();
      server = await startServer('sqlite', {
        publicUrlIsServer: true,
        dir: server.dir,
        port: Number(port),
        background: false,
      });
      api = client(server.url);
      const follow = peer.follow(aliceActor);
      expect((await peer.send(`${server.url}/inbox`, follow)).status).to.equal(202);
      const created = await createAsset(api, alice, 'sunset');
      expect(peer.attempts, 'nothing was sent before the restart').to.equal(0);

      await restart();

      const accept = await peer.waitFor((r) => r.body.type === 'Accept');
      const delivered = await peer.waitFor((r) => r.body.type === 'Create');
      expect(accept.body.object.id).to.equal(follow.id);
      expect(delivered.body.id).to.equal(created.activity.id);
      expect(delivered.httpSignedBy).to.equal(`${aliceActor}#main-key`);
      expect(delivered.ldVerified).to.equal(true);
    });
  });

  it('answers a key on a closed port exactly as a key its open server does not have (no port scanning)', async () => {
    const missing = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => missing.listen(0, '127.0.0.1', resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    try {
      const open = await unsignable(`http://127.0.0.1:${(missing.address() as AddressInfo).port}/users/x`);
      const shut = await unsignable(`http://127.0.0.1:${closedPort}/users/x`);

      expect([shut.status, shut.text]).to.deep.equal([open.status, open.text]);
      expectProblem(shut, 401, 'unauthenticated');
      expect(shut.headers.get('retry-after')).to.equal(null);
    } finally {
      await new Promise((resolve) => missing.close(resolve));
    }
  });

  /** A Follow of alice from `actor`, naming its key with a signature nobody made: its key must be fetched. */
  function unsignable(actor: string) {
    const body = JSON.stringify({ id: `${actor}#follows/1`, type: 'Follow', actor, object: aliceActor });
    return api.post('/inbox', undefined, {
      headers: {
        'content-type': 'application/activity+json',
        date: new Date().toUTCString(),
        digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
        signature: `keyId="${actor}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"`,
      },
      raw: body,
    });
  }

  it('answers 401 problems with a challenge naming what must be signed', async () => {
    const response = await api.post('/inbox', undefined, {
      headers: { 'content-type': 'application/activity+json' },
      raw: JSON.stringify(peer.follow(aliceActor)),
    });
    expectProblem(response, 401, 'unauthenticated');
    expect(response.headers.get('www-authenticate')).to.match(/^Signature /);
  });
});
