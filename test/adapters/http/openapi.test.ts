import { expect } from 'chai';
import { client } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

describe('GET /openapi.json', () => {
  let l2: TestServer;
  before(async () => (l2 = await startTestServer()));
  after(async () => l2.close());

  it('documents every JSON route of API.md, with the request schemas the routes validate with', async () => {
    const document = (await client(l2.url).get('/openapi.json')).json;
    expect(document.openapi).to.match(/^3\.1\./);
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const expected: [string, string][] = [
      ['/auth/register', 'post'],
      ['/auth/login', 'post'],
      ['/auth/me', 'get'],
      ['/auth/verify', 'post'],
      ['/auth/logout', 'post'],
      ['/renderers/attach', 'post'],
      ['/renderers', 'get'],
      ['/renderers/detach', 'post'],
      ['/assets', 'post'],
      ['/assets/{name}', 'get'],
      ['/assets/{name}', 'patch'],
      ['/assets/{name}', 'delete'],
      ['/registry', 'get'],
      ['/activities', 'get'],
      ['/activities/{idx}', 'get'],
      ['/users', 'get'],
      ['/users/{username}', 'get'],
      ['/users/{username}/outbox', 'get'],
      ['/users/{username}/followers', 'get'],
      ['/users/{username}/inbox', 'post'],
      ['/inbox', 'post'],
      ['/actor', 'get'],
      ['/.well-known/webfinger', 'get'],
      ['/nodeinfo/2.1', 'get'],
      ['/', 'get'],
      ['/healthz', 'get'],
      ['/readyz', 'get'],
      ['/metrics', 'get'],
    ];
    for (const [path, method] of expected)
      expect(paths[path]?.[method], `${method} ${path}`).to.be.an('object');
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas.RegisterAssetRequest!.properties!)).to.include.members([
      'name',
      'content_hash',
      'media_type',
      'url',
      'description',
      'tags',
    ]);
    expect(Object.keys(schemas.UpdateAssetRequest!.properties!)).to.have.members([
      'description',
      'tags',
      'url',
      'media_type',
    ]);
  });
});
