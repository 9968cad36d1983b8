import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFederationClient } from '../../../src/adapters/outbound/http-federation-client.js';
import { IpDestinationPolicy } from '../../../src/adapters/outbound/ip-destination-policy.js';
import { OutboundHttp } from '../../../src/adapters/outbound/outbound-request.js';
import { federationClientContract } from '../../contract/federation-client.contract.js';
import { httpFederationHarness, LoopbackOnly } from '../../support/loopback-peer.js';

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const key = { keyId: 'https://l2.example/users/alice#main-key', privateKeyPem: privateKey };

federationClientContract('HttpFederationClient', httpFederationHarness);

describe('HTTP federation client', () => {
  let server: Server;
  let base: string;
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  let seen: IncomingMessage[];

  const federation = (timeoutMs?: number, policy: IpDestinationPolicy = new LoopbackOnly()) =>
    new HttpFederationClient(
      new OutboundHttp(policy, 'L2-test', timeoutMs),
      async () => ({ keyId: 'https://l2.example/actor#main-key', privateKeyPem: privateKey }),
      { now: () => new Date() },
      // As L1_ALLOW_PRIVATE=true: WebFinger over http on loopback (the test servers).
      { httpOnLoopback: policy instanceof LoopbackOnly },
    );

  beforeEach(async () => {
    seen = [];
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const json = (res: ServerResponse, body: unknown, type = 'application/activity+json') =>
    res.writeHead(200, { 'content-type': type }).end(JSON.stringify(body));

  describe('deliveries', () => {
    it('POSTs the document as activity+json, signed over (request-target) host date digest content-type', async () => {
      handler = (_req, res) => res.writeHead(202).end();

      const outcome = await federation().deliver(`${base}/inbox`, { type: 'Create' }, key);

      expect(outcome).to.deep.equal({ kind: 'delivered' });
      const headers = seen[0]!.headers;
      expect(headers['content-type']).to.equal('application/activity+json');
      expect(headers.digest).to.match(/^SHA-256=/);
      expect(headers.signature).to.match(
        /^keyId="https:\/\/l2\.example\/users\/alice#main-key",algorithm="rsa-sha256",headers="\(request-target\) host date digest content-type accept",signature="/,
      );
    });

    for (const [status, kind] of [
      [200, 'delivered'],
      [204, 'delivered'],
      [301, 'refused'],
      [400, 'refused'],
      [401, 'failed'],
      [403, 'refused'],
      [404, 'refused'],
      [408, 'failed'],
      [410, 'refused'],
      [429, 'failed'],
      [500, 'failed'],
      [503, 'failed'],
    ] as const) {
      it(`counts ${status} as ${kind}`, async () => {
        handler = (_req, res) => res.writeHead(status).end();
        expect((await federation().deliver(`${base}/inbox`, {}, key)).kind).to.equal(kind);
      });
    }

    it('counts a host that does not answer within the timeout as a failure to retry', async () => {
      handler = () => {
        /* never answers */
      };
      expect(await federation(200).deliver(`${base}/inbox`, {}, key)).to.deep.equal({
        kind: 'failed',
        reason: 'timed out',
      });
    });

    it('counts a delivery by its status when the body never ends, and closes that connection at the deadline', async () => {
      // A byte every 20 ms: undici's own body timeout never fires, only the deadline of the whole exchange can.
      handler = (_req, res) => {
        res.writeHead(202).write('.');
        const trickle = setInterval(() => res.write('.'), 20);
        res.on('close', () => clearInterval(trickle));
      };

      expect(await federation(300).deliver(`${base}/inbox`, {}, key)).to.deep.equal({ kind: 'delivered' });
      const socket = seen[0]!.socket;
      await new Promise((resolve) => (socket.destroyed ? resolve(null) : socket.once('close', resolve)));
    });

    it('times out deliveries still waiting for a connection (more than the 32 per host) as well', async () => {
      handler = () => {
        /* never answers */
      };
      const client = federation(300);

      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, n) => client.deliver(`${base}/inbox`, { n }, key)),
      );

      expect(outcomes).to.deep.equal(Array(40).fill({ kind: 'failed', reason: 'timed out' }));
    });

    it('reads past a small answer body and keeps the connection for the next delivery', async () => {
      handler = (_req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
      const client = federation();

      const outcomes = [];
      for (let i = 0; i < 3; i++) outcomes.push(await client.deliver(`${base}/inbox`, { n: i }, key));

      expect(outcomes).to.deep.equal(Array(3).fill({ kind: 'delivered' }));
      expect(new Set(seen.map((req) => req.socket.remotePort)).size).to.equal(1);
    });

    it('takes the status of an endless answer and closes its connection instead of reading on', async () => {
      let sent = 0;
      handler = (_req, res) => {
        res.writeHead(202);
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const more = () => {
          while (!res.destroyed && sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        };
        res.on('drain', more);
        more();
      };

      expect(await federation().deliver(`${base}/inbox`, {}, key)).to.deep.equal({ kind: 'delivered' });
      await new Promise((resolve) =>
        seen[0]!.socket.destroyed ? resolve(null) : seen[0]!.socket.once('close', resolve),
      );
      expect(sent).to.be.below(8 * 1024 * 1024);
    });

    it('refuses a destination the rules forbid, without connecting', async () => {
      const outcome = await federation().deliver('http://10.0.0.1/inbox', {}, key);
      expect(outcome.kind).to.equal('refused');
      expect(seen).to.have.length(0);
    });
  });

  describe('fetching documents', () => {
    it('sends a GET signed by the service actor, asking for ActivityStreams', async () => {
      handler = (_req, res) => json(res, { id: `${base}/users/bob` });

      const fetched = await federation().fetchDocument(`${base}/users/bob`);

      expect(fetched.ok).to.equal(true);
      expect(seen[0]!.headers.accept).to.match(/^application\/activity\+json/);
      expect(seen[0]!.headers.signature).to.match(
        /^keyId="https:\/\/l2\.example\/actor#main-key",algorithm="rsa-sha256",headers="\(request-target\) host date accept"/,
      );
    });

    it('fetches at most 2 documents at once from one machine, whatever its ports, and turns the rest away at once', async () => {
      // Never answers; tells when the second request has arrived.
      let bothArrived!: () => void;
      const twoArrived = new Promise<void>((resolve) => (bothArrived = resolve));
      handler = () => {
        if (seen.length === 2) bothArrived();
      };
      const anotherPort = createServer((req, res) => {
        seen.push(req);
        handler(req, res);
      });
      await new Promise<void>((resolve) => anotherPort.listen(0, '127.0.0.1', resolve));
      // Another machine (another loopback address) is served at once.
      const other = createServer((_req, res) => json(res, { id: `${otherBase}/users/carol` }));
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
      const otherBase = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
      try {
        const client = federation(60_000);
        const settled: { reason?: string; retryable?: boolean }[] = [];
        const secondPort = `http://127.0.0.1:${(anotherPort.address() as AddressInfo).port}`;
        for (let i = 0; i < 300; i++) {
          // Half on another port of the same machine: another origin, the same destination.
          void client
            .fetchDocument(`${i % 2 ? secondPort : base}/keys/${i}`)
            .then((result) => settled.push(result as { reason?: string }));
        }
        await twoArrived;
        expect((await client.fetchDocument(`${otherBase}/users/carol`)).ok).to.equal(true);
        expect(seen).to.have.length(2); // never more than 2 at the silent machine
        // 2 running and 2 waiting; the other 296 were told at once to try again later.
        expect(settled).to.have.length(296);
        expect(settled.every((r) => r.retryable === true)).to.equal(true);
        expect(new Set(settled.map((r) => r.reason))).to.deep.equal(
          new Set(['too many fetches from this server are under way']),
        );
      } finally {
        for (const server of [other, anotherPort]) {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      }
    });

    it('follows up to 3 redirects, each checked against the rules', async () => {
      handler = (req, res) => {
        const hop = Number(req.url!.slice(1));
        if (hop < 3) res.writeHead(302, { location: `/${hop + 1}` }).end();
        else json(res, { id: `${base}/3` });
      };
      expect((await federation().fetchDocument(`${base}/0`)).ok).to.equal(true);

      handler = (req, res) => res.writeHead(302, { location: `/${Number(req.url!.slice(1)) + 1}` }).end();
      expect(await federation().fetchDocument(`${base}/0`)).to.deep.equal({
        ok: false,
        retryable: false,
        reason: 'too many redirects',
      });
    });

    it('refuses a document whose id is not on the origin that finally served it', async () => {
      handler = (_req, res) => json(res, { id: 'https://victim.example/users/bob' });
      const fetched = await federation().fetchDocument(`${base}/users/bob`);
      expect(fetched).to.deep.include({ ok: false });
    });

    it('keeps only what lookups read of a document', async () => {
      handler = (_req, res) =>
        json(res, {
          id: `${base}/users/bob`,
          type: 'Person',
          inbox: `${base}/in`,
          endpoints: { sharedInbox: `${base}/shared` },
          publicKey: {
            id: `${base}/users/bob#k`,
            owner: `${base}/users/bob`,
            publicKeyPem: 'PEM',
            extra: 'x',
          },
          attachment: Array.from({ length: 1000 }, (_, i) => ({ name: `field ${i}` })),
        });
      const fetched = await federation().fetchDocument(`${base}/users/bob`);
      expect(fetched).to.deep.equal({
        ok: true,
        document: {
          id: `${base}/users/bob`,
          type: 'Person',
          inbox: `${base}/in`,
          sharedInbox: `${base}/shared`,
          owner: undefined,
          publicKeyPem: undefined,
          publicKey: [{ id: `${base}/users/bob#k`, owner: `${base}/users/bob`, publicKeyPem: 'PEM' }],
          alsoKnownAs: [],
          movedTo: undefined,
        },
      });
    });

    it('never follows a redirect to a refused address', async () => {
      handler = (_req, res) =>
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();

      const fetched = await federation().fetchDocument(`${base}/users/bob`);

      expect(fetched).to.deep.equal({ ok: false, retryable: false, reason: '169.254.169.254 is refused' });
      expect(seen).to.have.length(1);
    });

    it('refuses an answer over 1 MiB, and one that is not JSON', async () => {
      handler = (_req, res) => json(res, { id: 'x', padding: 'x'.repeat(1024 * 1024) });
      const big = await federation().fetchDocument(`${base}/big`);
      expect(big.ok).to.equal(false);

      handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      expect((await federation().fetchDocument(`${base}/html`)).ok).to.equal(false);
    });

    it('reads an actor: its inbox and shared inbox, only when the document is the actor asked for', async () => {
      const actor = {
        id: `${base}/users/bob`,
        type: 'Person',
        inbox: `${base}/users/bob/inbox`,
        endpoints: { sharedInbox: `${base}/inbox` },
      };
      handler = (_req, res) => json(res, actor);
      expect(await federation().fetchActor(actor.id)).to.deep.equal({
        ok: true,
        actor: { id: actor.id, inbox: actor.inbox, sharedInbox: `${base}/inbox` },
      });

      handler = (_req, res) => json(res, { ...actor, id: `${base}/users/mallory` });
      expect((await federation().fetchActor(actor.id)).ok).to.equal(false);
      handler = (_req, res) => json(res, { ...actor, type: 'Note' });
      expect((await federation().fetchActor(actor.id)).ok).to.equal(false);
      handler = (_req, res) => res.writeHead(503).end();
      expect(await federation().fetchActor(actor.id)).to.deep.include({ ok: false, retryable: true });
    });
  });

  describe('actors someone names (API.md §4.3)', () => {
    const host = () => new URL(base).host;
    const person = (id: string, more: Record<string, unknown> = {}) => ({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id,
      type: 'Person',
      inbox: `${id}/inbox`,
      ...more,
    });
    const jrd = (links: unknown[]) => ({ subject: `acct:bob@${host()}`, links });

    it('asks WebFinger with an unsigned GET for acct:user@host and answers its ActivityPub self link', async () => {
      handler = (_req, res) =>
        json(
          res,
          jrd([
            { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: `${base}/@bob` },
            { rel: 'self', type: 'application/activity+json', href: `${base}/users/bob` },
          ]),
          'application/jrd+json; charset=utf-8',
        );

      const found = await federation().webfinger('bob', host());

      expect(found).to.deep.equal({ ok: true, self: `${base}/users/bob` });
      const asked = new URL(seen[0]!.url!, base);
      expect(asked.pathname).to.equal('/.well-known/webfinger');
      expect(asked.searchParams.get('resource')).to.equal(`acct:bob@${host()}`);
      expect(seen[0]!.headers.accept).to.equal('application/jrd+json');
      expect(seen[0]!.headers.signature).to.equal(undefined);
    });

    it('takes a self link of type ld+json with the ActivityStreams profile, and no other type', async () => {
      const ldJson = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
      handler = (_req, res) =>
        json(res, jrd([{ rel: 'self', type: ldJson, href: `${base}/u/1` }]), 'application/jrd+json');
      expect(await federation().webfinger('bob', host())).to.deep.equal({ ok: true, self: `${base}/u/1` });

      handler = (_req, res) =>
        json(res, jrd([{ rel: 'self', type: 'text/html', href: `${base}/@bob` }]), 'application/jrd+json');
      expect(await federation().webfinger('bob', host())).to.deep.include({ ok: false, retryable: false });
    });

    it('refuses, for good, a WebFinger answer with no self link, and an account it does not know', async () => {
      handler = (_req, res) => json(res, jrd([]), 'application/jrd+json');
      expect(await federation().webfinger('bob', host())).to.deep.equal({
        ok: false,
        retryable: false,
        reason: 'the account has no ActivityPub actor',
      });

      handler = (_req, res) => res.writeHead(404).end();
      expect(await federation().webfinger('nobody', host())).to.deep.equal({
        ok: false,
        retryable: false,
        reason: 'no such account',
      });
    });

    it('refuses a WebFinger answer over 1 MiB', async () => {
      const padding = 'x'.repeat(1024 * 1024);
      handler = (_req, res) =>
        json(
          res,
          { ...jrd([{ rel: 'self', type: 'application/activity+json', href: `${base}/u` }]), padding },
          'application/jrd+json',
        );

      expect(await federation().webfinger('bob', host())).to.deep.include({ ok: false, retryable: false });
    });

    it('follows at most 3 redirects of WebFinger and of an actor lookup', async () => {
      handler = (req, res) => res.writeHead(302, { location: `${req.url!}&hop=1` }).end();
      expect(await federation().webfinger('bob', host())).to.deep.include({
        ok: false,
        reason: 'too many redirects',
      });
      expect(seen).to.have.length(4);

      handler = (req, res) => res.writeHead(301, { location: `${req.url!}x` }).end();
      expect(await federation().lookUpActor(`${base}/users/bob`, { fresh: true })).to.deep.include({
        ok: false,
        reason: 'too many redirects',
      });
    });

    it('looks up an actor through redirects when its id is the URL that finally served it', async () => {
      // Mastodon's profile URL redirects to the actor; three hops are allowed.
      handler = (req, res) => {
        if (req.url === '/users/bob')
          return json(res, person(`${base}/users/bob`, { alsoKnownAs: [`${base}/old`] }));
        res
          .writeHead(302, { location: req.url === '/@bob' ? '/a' : req.url === '/a' ? '/b' : '/users/bob' })
          .end();
      };

      const lookup = await federation().lookUpActor(`${base}/@bob`, { fresh: true });

      expect(lookup).to.deep.equal({
        ok: true,
        actor: {
          id: `${base}/users/bob`,
          inbox: `${base}/users/bob/inbox`,
          sharedInbox: null,
          alsoKnownAs: [`${base}/old`],
          movedTo: null,
        },
      });
    });

    it('refuses an actor whose id is not the URL that served it, even on the same server', async () => {
      handler = (_req, res) => json(res, person(`${base}/users/bob`));

      const lookup = await federation().lookUpActor(`${base}/@bob`, { fresh: true });

      expect(lookup).to.deep.equal({
        ok: false,
        retryable: false,
        reason: 'the document’s id is not the URL that served it',
      });
    });

    it('refuses a document that is no actor, and an actor whose inbox is on another server', async () => {
      handler = (_req, res) => json(res, { ...person(`${base}/notes/1`), type: 'Note' });
      expect(await federation().lookUpActor(`${base}/notes/1`, { fresh: true })).to.deep.include({
        ok: false,
        reason: 'the document is not an actor',
      });

      handler = (_req, res) =>
        json(res, person(`${base}/users/bob`, { inbox: 'https://elsewhere.example/inbox' }));
      expect(await federation().lookUpActor(`${base}/users/bob`, { fresh: true })).to.deep.include({
        ok: false,
        reason: 'the actor has no inbox on its own server',
      });
    });

    it('keeps at most 16 http(s) aliases and an http(s) movedTo', async () => {
      const aliases = Array.from({ length: 20 }, (_, i) => `https://old${i}.example/u`);
      handler = (_req, res) =>
        json(
          res,
          person(`${base}/users/bob`, {
            alsoKnownAs: ['javascript:alert(1)', ...aliases],
            movedTo: 'ftp://x',
          }),
        );

      const lookup = await federation().lookUpActor(`${base}/users/bob`, { fresh: true });

      expect(lookup.ok && lookup.actor.alsoKnownAs).to.deep.equal(aliases.slice(0, 16));
      expect(lookup.ok && lookup.actor.movedTo).to.equal(null);
    });

    it('asks the server again for a fresh lookup, signed by the service actor, and keeps that copy', async () => {
      const client = federation();
      handler = (_req, res) => json(res, person(`${base}/users/bob`));
      expect((await client.fetchActor(`${base}/users/bob`)).ok).to.equal(true);

      handler = (_req, res) => json(res, person(`${base}/users/bob`, { movedTo: `${base}/users/bob2` }));
      const lookup = await client.lookUpActor(`${base}/users/bob`, { fresh: true });

      expect(lookup.ok && lookup.actor.movedTo).to.equal(`${base}/users/bob2`);
      expect(seen).to.have.length(2);
      expect(seen[1]!.headers.signature).to.match(/^keyId="https:\/\/l2\.example\/actor#main-key"/);
      // The fresh copy replaced the kept one: the next (cached) fetch answers it without asking.
      const cached = await client.fetchDocument(`${base}/users/bob`);
      expect(cached.ok && cached.document.movedTo).to.equal(`${base}/users/bob2`);
      expect(seen).to.have.length(2);
    });

    it('asks nothing of a private address unless private destinations are allowed', async () => {
      handler = (_req, res) => json(res, person(`${base}/users/bob`));
      const production = federation(undefined, new IpDestinationPolicy(false));

      const finger = await production.webfinger('bob', host());
      const lookup = await production.lookUpActor(`${base}/users/bob`, { fresh: true });

      expect(finger).to.deep.include({ ok: false, retryable: false });
      expect(lookup).to.deep.include({ ok: false, retryable: false });
      expect(seen).to.have.length(0);
    });

    it('asks WebFinger over https, never http, without L1_ALLOW_PRIVATE', async () => {
      handler = (_req, res) =>
        json(res, jrd([{ rel: 'self', type: 'application/activity+json', href: `${base}/u` }]));
      // Private destinations allowed by the address rules, but WebFinger not told it may use http on loopback.
      const client = new HttpFederationClient(
        new OutboundHttp(new LoopbackOnly(), 'L2-test'),
        async () => ({ keyId: 'https://l2.example/actor#main-key', privateKeyPem: privateKey }),
        { now: () => new Date() },
      );

      expect((await client.webfinger('bob', host())).ok).to.equal(false);
      expect(seen).to.have.length(0); // a TLS handshake reached the plain-HTTP server, no request
    });
  });
});
