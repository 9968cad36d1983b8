// API.md §4.3 "Resolving an actor someone names", against a real remote server: a Fedify peer on 127.0.0.2 answers
// WebFinger and serves its actors (Mastodon's authorized-fetch mode: only GETs signed by a key it can verify).
// No route names actors yet in this slice, so the service is called as the routes will call it.
import { expect } from 'chai';
import { parseActorName } from '../../../../src/domain/actor-name.js';
import type { Username } from '../../../../src/domain/user.js';
import { registerUser } from '../../../support/http.js';
import { FedifyPeer } from '../../../support/fedify-peer.js';
import type { TestServer } from '../../../support/test-server.js';
import { startServer, STORES } from '../registry/support.js';

for (const store of STORES) {
  describe(`resolving an actor someone names, with a Fedify peer (${store})`, function () {
    let server: TestServer;
    let peer: FedifyPeer;
    let aliceActor: string;

    const resolve = (text: string) => {
      const name = parseActorName(text);
      if (!name.ok) throw new Error(name.error);
      return server.parts.services.actorResolution.resolve('alice' as Username, name.value, 'actor');
    };

    beforeEach(async () => {
      server = await startServer(store, { publicUrlIsServer: true, env: { LOOKUPS_PER_USER: '4' } });
      await registerUser(server.url, 'alice');
      aliceActor = `${server.url}/users/alice`;
      peer = await FedifyPeer.start({
        host: '127.0.0.2',
        authorizedFetch: true,
        actors: {
          carol: { alsoKnownAs: [aliceActor] },
          dave: { movedTo: 'https://elsewhere.example/users/d' },
        },
      });
    });
    afterEach(async () => {
      await server.close();
      await peer.close();
    });

    it('finds @carol@host by WebFinger and reads her actor with a signed GET: her inboxes and aliases', async () => {
      const resolved = await resolve(peer.handleOf('carol'));

      expect(resolved).to.deep.equal({
        ok: true,
        value: {
          id: peer.actorIdOf('carol'),
          inbox: `${peer.actorIdOf('carol')}/inbox`,
          sharedInbox: peer.sharedInbox,
          alsoKnownAs: [aliceActor],
          movedTo: null,
          local: null,
        },
      });
      expect(peer.gets).to.deep.equal([
        `/.well-known/webfinger?resource=${encodeURIComponent(`acct:carol@${peer.host}`)}`,
        '/users/carol',
      ]);
      expect(peer.actorFetchedBy, 'verified by Fedify with the service actor’s key').to.deep.equal([
        `${server.url}/actor#main-key`,
      ]);
    });

    it('reads an actor named by URL afresh each time: a move made meanwhile is seen', async () => {
      const before = await resolve(peer.actorIdOf('dave'));
      peer.actors.set('dave', { movedTo: peer.actorIdOf('carol') });
      const after = await resolve(peer.actorIdOf('dave'));

      expect(before.ok && before.value.movedTo).to.equal('https://elsewhere.example/users/d');
      expect(after.ok && after.value.movedTo).to.equal(peer.actorIdOf('carol'));
      expect(peer.gets).to.deep.equal(['/users/dave', '/users/dave']);
    });

    it('refuses a handle the peer does not know, with the path and a sentence', async () => {
      const resolved = await resolve(peer.handleOf('nobody'));

      expect(resolved).to.deep.equal({
        ok: false,
        error: {
          type: 'invalid_request',
          path: 'actor',
          message: `${peer.handleOf('nobody')} could not be found: no such account.`,
        },
      });
    });

    it('resolves a name on this L2 without asking anyone, and spends nothing of the budget on it', async () => {
      const host = new URL(server.url).host;
      for (let i = 0; i < 5; i++) {
        const resolved = await resolve(`@alice@${host}`);
        expect(resolved.ok && resolved.value).to.deep.include({ id: aliceActor, local: 'alice' });
      }
      expect(peer.gets).to.deep.equal([]);
    });

    it('stops at LOOKUPS_PER_USER requests: beyond, rate_limited and nothing asked', async () => {
      expect((await resolve(peer.handleOf('carol'))).ok).to.equal(true);
      expect((await resolve(peer.handleOf('carol'))).ok).to.equal(true);

      const limited = await resolve(peer.actorIdOf('dave'));

      expect(!limited.ok && limited.error.type).to.equal('rate_limited');
      expect(peer.gets).to.have.length(4);
    });
  });
}
