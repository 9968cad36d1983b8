// API.md §5 against a real remote server: Fedify on 127.0.0.1 follows, receives and verifies, as Mastodon would.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import type { PostgresDatabase } from '../../../../src/adapters/persistence/postgres/postgres-database.js';
import { MemoryDatabase } from '../../../../src/adapters/persistence/memory/memory-database.js';
import type { SqlitePersistence } from '../../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { SIGNATURE_REFUSED_DETAIL } from '../../../../src/adapters/http/koa/errors/federation-errors.js';
import type { SignatureRefusal } from '../../../../src/application/ports/signature-verifier.js';
import { client, registerUser } from '../../../support/http.js';
import { FedifyPeer } from '../../../support/fedify-peer.js';
import type { TestServer } from '../../../support/test-server.js';
import { PASSWORD } from '../helpers.js';
import {
  AP_ACCEPT,
  AP_CONTENT_TYPE,
  createAsset,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

for (const store of STORES) {
  describe(`federation with a Fedify peer (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let peer: FedifyPeer;
    let aliceActor: string;

    const followers = async (): Promise<Json> => {
      const root = await api.get('/users/alice/followers', { headers: { accept: AP_ACCEPT } });
      const page = await api.get('/users/alice/followers?page=true', { headers: { accept: AP_ACCEPT } });
      return { totalItems: root.json.totalItems, items: page.json.orderedItems };
    };

    beforeEach(async () => {
      server = await startServer(store, { publicUrlIsServer: true });
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      aliceActor = `${server.url}/users/alice`;
      // Mastodon's authorized-fetch mode: the peer's actor answers only GETs signed by a key it can verify.
      peer = await FedifyPeer.start({ authorizedFetch: true });
    });
    afterEach(async () => {
      await server.close();
      await peer.close();
    });

    it('accepts a signed Follow: the follower is stored and a signed Accept of that Follow reaches its inbox', async () => {
      const follow = peer.follow(aliceActor);

      const response = await peer.send(`${server.url}/users/alice/inbox`, follow);

      expect(response.status, await response.text()).to.equal(202);
      const accept = await peer.waitFor((r) => r.body.type === 'Accept');
      expect(accept.path, 'the follower’s own inbox').to.equal('/users/bob/inbox');
      expect(accept.httpSignedBy, 'verified by Fedify with alice’s key').to.equal(`${aliceActor}#main-key`);
      expect(accept.contentType).to.match(AP_CONTENT_TYPE);
      expect(accept.body).to.deep.include({ actor: aliceActor, type: 'Accept' });
      expect(accept.body.object).to.deep.equal({
        id: follow.id,
        type: 'Follow',
        actor: peer.actorId,
        object: aliceActor,
      });
      expect(await followers()).to.deep.equal({ totalItems: 1, items: [peer.actorId] });
      expect(peer.actorFetchedBy.every((by) => by === `${server.url}/actor#main-key`)).to.equal(true);
      expect(peer.actorFetchedBy.length).to.be.greaterThan(0);
    });

    it('delivers a later Create to the shared inbox, HTTP-signed and LD-signed by its publisher', async () => {
      await peer.send(`${server.url}/inbox`, peer.follow(aliceActor));
      await peer.waitFor((r) => r.body.type === 'Accept');

      const created = await createAsset(api, alice, 'sunset');

      const delivered = await peer.waitFor((r) => r.body.type === 'Create');
      expect(delivered.path).to.equal('/inbox');
      expect(delivered.body.id).to.equal(created.activity.id);
      expect(delivered.httpSignedBy).to.equal(`${aliceActor}#main-key`);
      expect(delivered.ldVerified, 'Fedify verifyJsonLd').to.equal(true);
      const stored = await api.get(new URL(created.activity.id).pathname, { headers: { accept: AP_ACCEPT } });
      expect(delivered.body, 'the stored signed activity, as it is').to.deep.equal(stored.json);
    });

    it('answers a repeated Follow with another Accept and keeps one follower', async () => {
      const first = peer.follow(aliceActor);
      const second = peer.follow(aliceActor);
      await peer.send(`${server.url}/users/alice/inbox`, first);
      await peer.send(`${server.url}/users/alice/inbox`, second);

      await peer.waitFor((r) => r.body.type === 'Accept' && r.body.object.id === first.id);
      await peer.waitFor((r) => r.body.type === 'Accept' && r.body.object.id === second.id);
      expect(await followers()).to.deep.equal({ totalItems: 1, items: [peer.actorId] });
    });

    it('ends the follow on an Undo: later activities go to the remaining followers only', async () => {
      const other = await FedifyPeer.start();
      try {
        const follow = peer.follow(aliceActor);
        await peer.send(`${server.url}/users/alice/inbox`, follow);
        await other.send(`${server.url}/users/alice/inbox`, other.follow(aliceActor));
        await peer.waitFor((r) => r.body.type === 'Accept');
        await other.waitFor((r) => r.body.type === 'Accept');

        const undo = {
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: `${follow.id}/undo`,
          type: 'Undo',
          actor: peer.actorId,
          object: follow,
        };
        const response = await peer.send(`${server.url}/users/alice/inbox`, undo);
        expect(response.status).to.equal(202);
        expect((await followers()).items).to.deep.equal([other.actorId]);

        await createAsset(api, alice, 'after-undo');

        // Deliveries are queued with the activity, in one write: none was queued for the peer that left.
        expect(await jobsInLane(server, peer.url), 'jobs for the peer that left').to.equal(0);
        await other.waitFor((r) => r.body.type === 'Create');
        expect(peer.received.map((r) => r.body.type)).to.deep.equal(['Accept']);
      } finally {
        await other.close();
      }
    });

    it('removes a deleted actor from the followers', async () => {
      await peer.send(`${server.url}/users/alice/inbox`, peer.follow(aliceActor));
      await peer.waitFor((r) => r.body.type === 'Accept');

      const response = await peer.send(`${server.url}/inbox`, {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${peer.actorId}#delete`,
        type: 'Delete',
        actor: peer.actorId,
        object: peer.actorId,
      });

      expect(response.status).to.equal(202);
      expect(await followers()).to.deep.equal({ totalItems: 0, items: [] });
    });

    it("sends the actor's Delete to its followers when the account is deleted, signed with the key they know", async () => {
      await peer.send(`${server.url}/users/alice/inbox`, peer.follow(aliceActor));
      await peer.waitFor((r) => r.body.type === 'Accept');

      const deleted = await api.post('/auth/delete-account', { password: PASSWORD }, { token: alice });
      expect(deleted.status, deleted.text).to.equal(200);
      expect((await api.get('/users/alice', { headers: { accept: AP_ACCEPT } })).status).to.equal(410);

      const gone = await peer.waitFor((r) => r.body.type === 'Delete' && r.body.object === aliceActor);
      expect(gone.body.actor).to.equal(aliceActor);
      expect(gone.httpSignedBy).to.equal(`${aliceActor}#main-key`);
      // A Follow of the deleted account is no longer taken.
      expect((await peer.send(`${server.url}/users/alice/inbox`, peer.follow(aliceActor))).status).to.equal(
        410,
      );
    });

    it('accepts and ignores other activity types', async () => {
      const like = {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${peer.actorId}/likes/1`,
        type: 'Like',
        actor: peer.actorId,
        object: aliceActor,
      };

      expect((await peer.send(`${server.url}/inbox`, like)).status).to.equal(202);
      expect(await followers()).to.deep.equal({ totalItems: 0, items: [] });
    });

    describe('refuses with 401 and stores nothing', () => {
      /**
       * Sends, expects a 401 problem with the one fixed detail, the reason counted for the operator, and checks that
       * no follower and no job was stored.
       */
      async function refused(send: () => Promise<Response>, reason: SignatureRefusal): Promise<void> {
        const response = await send();
        const body = (await response.json()) as Json;
        expect(response.status, JSON.stringify(body)).to.equal(401);
        expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(body).to.deep.include({
          status: 401,
          code: 'unauthenticated',
          detail: SIGNATURE_REFUSED_DETAIL,
        });
        const metrics = await api.get('/metrics');
        expect(metrics.text).to.include(`l2_inbox_refusals_total{reason="${reason}"} 1\n`);
        expect(await followers()).to.deep.equal({ totalItems: 0, items: [] });
        expect(await queueStats(server)).to.deep.equal({ pending: 0, abandoned: 0 });
        expect(await server.parts.store.remoteKeys.get(peer.keyId), 'no key kept').to.equal(null);
      }
      const inbox = () => `${server.url}/users/alice/inbox`;

      it('an unsigned Follow', () =>
        refused(() => peer.send(inbox(), peer.follow(aliceActor), { unsigned: true }), 'unsigned'));

      it('a bad signature', () =>
        refused(async () => {
          const follow = peer.follow(aliceActor);
          const signed = await peer.signedHeaders(inbox(), follow);
          const tampered = signed
            .get('signature')!
            .replace(/signature="(.)/, (_m, c: string) => `signature="${c === 'A' ? 'B' : 'A'}`);
          signed.set('signature', tampered);
          return fetch(inbox(), { method: 'POST', headers: signed, body: JSON.stringify(follow) });
        }, 'signature'));

      it('a Digest that does not match the body', () =>
        refused(
          () =>
            peer.send(inbox(), peer.follow(aliceActor), { body: JSON.stringify(peer.follow(aliceActor)) }),
          'digest',
        ));

      it('a Date 10 minutes old', () =>
        refused(
          () =>
            peer.send(inbox(), peer.follow(aliceActor), {
              headers: { date: new Date(Date.now() - 10 * 60_000).toUTCString() },
            }),
          'date',
        ));

      it('a key that cannot be found', () =>
        refused(
          () => peer.send(inbox(), peer.follow(aliceActor), { keyId: `${peer.url}/users/nobody#main-key` }),
          'key_unusable',
        ));

      it('a signer that is another actor of the same server', () =>
        refused(
          () => peer.send(inbox(), { ...peer.follow(aliceActor), actor: `${peer.url}/users/carol` }),
          'signer',
        ));

      it('a request signed for another server (Host), replayed here', () =>
        refused(async () => {
          // fetch() sets Host itself; node:http sends the one the peer signed for.
          const follow = peer.follow(aliceActor);
          const headers = await peer.signedHeaders(inbox(), follow, {
            headers: { host: 'mastodon.example' },
          });
          return new Promise<Response>((resolve, reject) => {
            const request = httpRequest(
              inbox(),
              { method: 'POST', headers: Object.fromEntries(headers) },
              (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (chunk: Buffer) => chunks.push(chunk));
                res.on('end', () =>
                  resolve(
                    new Response(Buffer.concat(chunks), {
                      status: res.statusCode ?? 0,
                      headers: { 'content-type': String(res.headers['content-type']) },
                    }),
                  ),
                );
              },
            );
            request.on('error', reject);
            request.end(JSON.stringify(follow));
          });
        }, 'host'));

      it('a signer on another server than the actor', async () => {
        const other = await FedifyPeer.start();
        try {
          // bob signs a Follow that claims to be by the other server's actor.
          await refused(
            () => peer.send(inbox(), { ...peer.follow(aliceActor), actor: other.actorId }),
            'key_origin',
          );
        } finally {
          await other.close();
        }
      });
    });
  });
}

/** Jobs waiting in the server's queue, read from its store. */
const queueStats = (server: TestServer) => server.parts.store.queueAdministration.stats();

/** How many jobs, leased or not, the server's store holds for one destination. */
async function jobsInLane(server: TestServer, lane: string): Promise<number> {
  const { db, database } = server.parts.store as unknown as { db?: unknown; database?: PostgresDatabase };
  if (db instanceof MemoryDatabase) return [...db.jobs.values()].filter((j) => j.lane === lane).length;
  // L2_TEST_STORE=postgres: the same count from the PostgreSQL store.
  if (database)
    return (
      await database.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE lane = $1', [lane])
    )[0]!.n;
  const sqlite = db as SqlitePersistence['db'];
  return sqlite.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM jobs WHERE lane = ?').get(lane)!
    .n;
}
