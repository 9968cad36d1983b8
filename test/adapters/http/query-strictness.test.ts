import { expect } from 'chai';
import { client } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** Odd query strings are refused with a 400 rather than silently read some other way. */
describe('list query parameters', () => {
  let l2: TestServer;
  before(async () => (l2 = await startTestServer()));
  after(async () => l2.close());

  const json = { headers: { accept: 'application/json' } };
  for (const query of [
    'owner=alice&owner=bob',
    'owner[]=alice',
    'q=a&q=b',
    'limit=1&limit=2',
    'before=',
    'before=1e3',
    'before=0x10',
    'before=-1',
    'after=-2',
    'limit=1.5',
    'limit= 5',
    'before=99999999999999999999',
  ]) {
    it(`answers 400 invalid_request to /registry?${query}`, async () => {
      const response = await client(l2.url).get(`/registry?${query}`, json);
      expect(response.status).to.equal(400);
      expect(response.json.code).to.equal('invalid_request');
    });
  }

  it('accepts after=-1 (the oldest page) and plain decimal cursors', async () => {
    for (const query of ['after=-1', 'before=5', 'limit=100', 'after=0']) {
      expect((await client(l2.url).get(`/activities?${query}`, json)).status, query).to.equal(200);
    }
  });
});
