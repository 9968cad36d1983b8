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
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );

    // What the server really serves: the router's layers, each named 'json' (API) or 'page' when registered.
    const dispatch = l2.l2.app.middleware.find((m) => 'router' in m) as unknown as {
      router: { stack: { methods: string[]; path: string | RegExp; name?: string }[] };
    };
    const served = dispatch.router.stack
      .filter((layer) => layer.name === 'json')
      .flatMap((layer) =>
        layer.methods
          .filter((m) => m !== 'HEAD')
          .map((m) => `${m} ${String(layer.path).replace(/[:*]([A-Za-z_]\w*)/g, '{$1}')}`),
      );

    expect([...served].sort()).to.deep.equal([...documented].sort());
    // API.md's routes are among them (a sample of each section; the full set is every route test's business).
    for (const route of [
      'POST /auth/verify',
      'POST /renderers/attach',
      'PATCH /assets/{name}',
      'GET /users/{username}/followers',
      'GET /users/{username}/featured',
      'PATCH /users/{username}',
      'GET /tags/{tag}',
      'POST /inbox',
      'GET /metrics',
      'GET /.well-known/oauth-authorization-server',
      'GET /.well-known/jwks.json',
      'GET /oauth/authorize',
      'POST /oauth/authorize',
      'POST /oauth/token',
      'POST /oauth/introspect',
      'GET /tlog/checkpoint',
      'GET /tlog/key',
      'GET /tlog/tile/{level}/{index}',
      'GET /activities/{idx}/proof',
    ])
      expect(documented, route).to.include(route);
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    // The one request L2 makes of L1 servers, with the signed logout token of API.md §2.4.
    expect(
      document.webhooks.revocationNotice.post.requestBody.content['application/json'].schema.$ref,
    ).to.equal('#/components/schemas/RevocationNotice');
    expect(Object.keys(schemas.RevocationNotice!.properties!)).to.have.members([
      'token_hash',
      'username',
      'l2_server',
      'expires_at',
      'logout_token',
    ]);
    expect(Object.keys(schemas.IntrospectionResponse!.properties!)).to.include.members([
      'active',
      'aud',
      'sid',
    ]);
    expect(Object.keys(schemas.TokenResponse!.properties!)).to.have.members([
      'access_token',
      'token_type',
      'expires_in',
      'scope',
      'id_token', // API.md §2.5: when openid was granted
    ]);
    expect(Object.keys(schemas.UserInfo!.properties!)).to.have.members([
      'sub',
      'preferred_username',
      'name',
      'picture',
      'profile',
    ]);
    expect(Object.keys(schemas.RegisterAssetRequest!.properties!)).to.include.members([
      'name',
      'content_hash',
      'media_type',
      'url',
      'description',
      'alt_text',
      'sensitive',
      'tags',
    ]);
    expect(Object.keys(schemas.UpdateAssetRequest!.properties!)).to.have.members([
      'description',
      'alt_text',
      'sensitive',
      'tags',
      'url',
      'media_type',
    ]);
    expect(Object.keys(schemas.UpdateProfileRequest!.properties!)).to.have.members([
      'display_name',
      'bio',
      'avatar',
      'header',
      'fields',
      'pinned',
      'indexable',
      'manually_approves_followers',
    ]);
  });
});
