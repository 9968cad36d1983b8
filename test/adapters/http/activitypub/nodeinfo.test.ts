import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import { BASE, createAsset, localPath, startServer, STORES, type Api } from '../registry/support.js';

const SCHEMA_21 = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

for (const store of STORES) {
  describe(`NodeInfo (${store})`, () => {
    let server: TestServer;
    let api: Api;

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
    });
    afterEach(() => server?.close());

    /** Follows the discovery document to the 2.1 document on the test server. */
    async function nodeinfo(): Promise<Doc> {
      const discovery = await api.get('/.well-known/nodeinfo', { headers: { accept: 'application/json' } });
      const link = discovery.json.links.find((l: { rel: string }) => l.rel === SCHEMA_21);
      const response = await api.get(localPath(link.href), { headers: { accept: 'application/json' } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      return JSON.parse(response.text);
    }

    it('/.well-known/nodeinfo links schema 2.1 to the absolute /nodeinfo/2.1 URL', async () => {
      const response = await api.get('/.well-known/nodeinfo', { headers: { accept: 'application/json' } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(response.json.links).to.deep.include({ rel: SCHEMA_21, href: `${BASE}/nodeinfo/2.1` });
    });

    it('answers the discovery document without an Accept header too', async () => {
      const response = await api.get('/.well-known/nodeinfo');
      expect(response.status).to.equal(200);
      expect(JSON.parse(response.text).links).to.be.an('array').that.is.not.empty;
    });

    it('the 2.1 document satisfies the schema as strict parsers (Fedify) read it', async () => {
      const doc = await nodeinfo();
      expect(doc.version).to.equal('2.1');
      expect(doc.software).to.be.an('object');
      expect(doc.software.name)
        .to.be.a('string')
        .and.match(/^[a-z0-9-]+$/);
      expect(doc.software.version).to.be.a('string').and.not.equal('');
      expect(doc.protocols).to.deep.equal(['activitypub']);
      expect(doc.services).to.deep.equal({ inbound: [], outbound: [] });
      expect(doc.openRegistrations).to.be.a('boolean');
      expect(doc.usage).to.be.an('object');
      expect(doc.usage.users).to.be.an('object');
      expect(doc.metadata).to.be.an('object').and.not.an('array');
      for (const value of [doc.usage.users.total, doc.usage.localPosts]) {
        expect(Number.isInteger(value) && value >= 0, String(value)).to.equal(true);
      }
      for (const optional of ['activeMonth', 'activeHalfyear']) {
        const value = doc.usage.users[optional];
        if (value !== undefined) expect(Number.isInteger(value) && value >= 0, optional).to.equal(true);
      }
    });

    it('usage.users.total and usage.localPosts follow registrations and activities', async () => {
      expect((await nodeinfo()).usage).to.deep.include({ users: { total: 0 }, localPosts: 0 });
      const alice = await registerUser(server.url, 'alice');
      await registerUser(server.url, 'bob');
      let doc = await nodeinfo();
      expect(doc.usage.users.total).to.equal(2);
      expect(doc.usage.localPosts).to.equal(0);
      await createAsset(api, alice, 'sunset');
      await api.send('PATCH', '/assets/sunset', { description: 'v2' }, { token: alice });
      await api.send('DELETE', '/assets/sunset', undefined, { token: alice });
      doc = await nodeinfo();
      expect(doc.usage.users.total).to.equal(2);
      expect(doc.usage.localPosts).to.equal(3);
    });
  });
}
