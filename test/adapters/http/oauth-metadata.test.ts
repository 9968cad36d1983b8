// What an OAuth library reads first (API.md §2.1, §2.5): RFC 8414 metadata and the signing keys' JWK Set.
import { expect } from 'chai';
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { client } from '../../support/http.js';
import { newIdTokenKeyPem, writeIdTokenKey } from '../../support/id-token-key.js';
import { newNoticeKeyPem } from '../../support/notice-key.js';
import { startTestServer, TEST_SECRET, type TestServer } from '../../support/test-server.js';
import { writeFileSync } from 'node:fs';

describe('OAuth metadata and keys', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('publishes RFC 8414 metadata: issuer PUBLIC_URL, every endpoint, only what L2 supports; public and cacheable', async () => {
    server = await startTestServer({ publicUrlIsServer: true });
    const answer = await client(server.url).get('/.well-known/oauth-authorization-server');
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('cache-control')).to.equal('public, max-age=3600');
    expect(answer.headers.get('access-control-allow-origin')).to.equal('*');
    const base = server.url;
    // The values §2.5 changed or added (OpenID Connect Discovery) — the whole of them in openid-connect.test.ts.
    expect(answer.json).to.deep.include({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      introspection_endpoint: `${base}/oauth/introspect`,
      userinfo_endpoint: `${base}/oauth/userinfo`,
      revocation_endpoint: `${base}/oauth/revoke`,
      end_session_endpoint: `${base}/oauth/logout`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
      introspection_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
      scopes_supported: ['openid', 'profile', 'l1'],
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
    expect(Object.keys(answer.json)).to.have.length(31);
  });

  it('serves the metadata at the RFC 8414 §3 path too when PUBLIC_URL has a path', async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://l2.example/id' } });
    const inserted = await client(server.url).get('/.well-known/oauth-authorization-server/id');
    expect(inserted.status).to.equal(200);
    expect(inserted.json.issuer).to.equal('https://l2.example/id');
    expect(inserted.json.token_endpoint).to.equal('https://l2.example/id/oauth/token');
  });

  it('publishes the notice key and the previous one, public halves only, named by their thumbprints', async () => {
    const dir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'l2-keys-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    const previous = newNoticeKeyPem();
    const current = newNoticeKeyPem();
    writeFileSync(join(dir, 'notice_signing_key'), current);
    writeFileSync(join(dir, 'notice_signing_key.previous'), previous);
    server = await startTestServer({ dir });
    const answer = await client(server.url).get('/.well-known/jwks.json');
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('cache-control')).to.equal('public, max-age=300');
    // API.md §2.5: the ID-token key (RSA) follows the notice keys.
    const keys = (answer.json.keys as JWK[]).filter((key) => key.kty === 'EC');
    expect((answer.json.keys as JWK[]).map((key) => key.kty)).to.deep.equal(['EC', 'EC', 'RSA']);
    const expected = [current, previous].map(
      (pem) => createPublicKey(pem).export({ format: 'jwk' }) as { x: string; y: string },
    );
    expect(keys.map((k) => [k.x, k.y])).to.deep.equal(expected.map((k) => [k.x, k.y]));
    for (const key of keys) {
      expect(key).to.include({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
      expect(key).not.to.have.property('d');
      expect(key.kid).to.equal(await calculateJwkThumbprint(key));
    }
    expect(answer.text).not.to.include(readFileSync(join(dir, 'jwt_secret'), 'utf8').trim());
  });

  it('publishes the ID-token key and the previous one after the notice key: RSA public halves, by thumbprint', async () => {
    const dir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'l2-keys-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    const previous = newIdTokenKeyPem();
    const current = writeIdTokenKey(dir, { previous, fresh: true });
    server = await startTestServer({ dir });
    const keys = (await client(server.url).get('/.well-known/jwks.json')).json.keys as JWK[];
    const rsa = keys.filter((key) => key.kty === 'RSA');
    const expected = [current, previous].map(
      (pem) => (createPublicKey(pem).export({ format: 'jwk' }) as JWK).n,
    );
    expect(rsa.map((key) => key.n)).to.deep.equal(expected);
    for (const key of rsa) {
      expect(key).to.have.keys(['kty', 'n', 'e', 'kid', 'use', 'alg']);
      expect(key).to.include({ use: 'sig', alg: 'RS256' });
      expect(key.kid).to.equal(await calculateJwkThumbprint(key));
    }
  });
});
