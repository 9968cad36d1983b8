import { expect } from 'chai';
import { request } from 'node:http';
import { client, registerUser } from '../../support/http.js';
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

  it('refuses a crowded or long query string before any route parses it (400), on every kind of route', async () => {
    const crowded = 'a&'.repeat(8000);
    for (const path of ['/users', '/activities', '/.well-known/webfinger', '/login', '/nowhere']) {
      const response = await client(l2.url).get(`${path}?${crowded}`, json);
      expect(response.status, path).to.equal(400);
      expect(response.json.code, path).to.equal('invalid_request');
    }
    const long = await client(l2.url).get(`/registry?q=${'a'.repeat(2100)}`, json);
    expect(long.status).to.equal(400);
    expect(long.json.detail).to.match(/at most 32 parameters and 2048 bytes/);
  });

  it('still serves 32 parameters of up to 2048 bytes in all', async () => {
    const query = Array.from({ length: 31 }, (_, i) => `x${i}=1`).join('&');
    expect((await client(l2.url).get(`/.well-known/nodeinfo?${query}&y=2`, json)).status).to.equal(200);
  });
  it('refuses a request target Koa reads without a path (//%20@#) with a 400 and the security headers, signed in or not', async () => {
    const token = await registerUser(l2.url, 'nopath');
    const { hostname, port } = new URL(l2.url);
    for (const authorization of [undefined, `Bearer ${token}`]) {
      // node:http sends the target as written; fetch would normalise it.
      const answer = await new Promise<{ status: number; nosniff: unknown; body: string }>(
        (resolve, reject) => {
          const sent = request(
            {
              hostname,
              port,
              method: 'GET',
              path: '//%20@#',
              headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) },
            },
            (response) => {
              let body = '';
              response.on('data', (chunk: Buffer) => (body += chunk.toString()));
              response.on('end', () =>
                resolve({
                  status: response.statusCode ?? 0,
                  nosniff: response.headers['x-content-type-options'],
                  body,
                }),
              );
            },
          );
          sent.on('error', reject);
          sent.end();
        },
      );
      expect(answer.status, String(authorization)).to.equal(400);
      expect(JSON.parse(answer.body)).to.include({
        code: 'invalid_request',
        detail: 'The request target is not a path.',
      });
      expect(answer.nosniff).to.equal('nosniff');
    }
  });
});
