// The rules of Client ID Metadata Documents and client authentication (API.md §2.5), without I/O.
import { expect } from 'chai';
import {
  checkAssertionClaims,
  claimedClient,
  JWT_BEARER_ASSERTION,
  NO_CLIENT_CREDENTIALS,
} from '../../../src/domain/client-authentication.js';
import {
  checkClientDocument,
  documentLifetimeSeconds,
  isClientDocumentId,
} from '../../../src/domain/client-document.js';
import type { L1ServerUrl } from '../../../src/domain/l1-server.js';

const ID = 'https://app.example/client.json' as L1ServerUrl;
const base = { client_id: ID, redirect_uris: ['https://app.example/cb'] };
const rsaModulus = 'A'.repeat(342);

describe('client metadata documents', () => {
  it('looks up only https client_ids with a path that normalisation leaves unchanged (http only on loopback, when allowed)', () => {
    expect(isClientDocumentId(ID, false)).to.equal(true);
    expect(isClientDocumentId('https://app.example', false)).to.equal(false);
    expect(isClientDocumentId('https://App.example/client.json', false)).to.equal(false);
    expect(isClientDocumentId('https://app.example/client/', false)).to.equal(false);
    expect(isClientDocumentId('http://app.example/client.json', true)).to.equal(false);
    expect(isClientDocumentId('http://127.0.0.1:8080/client.json', false)).to.equal(false);
    expect(isClientDocumentId('http://127.0.0.1:8080/client.json', true)).to.equal(true);
    expect(isClientDocumentId('http://localhost:8080/c', true)).to.equal(true);
  });

  it('accepts a minimal public document and ignores a malformed name, logo or home page', () => {
    const checked = checkClientDocument(
      ID,
      { ...base, client_name: 7, logo_uri: 'javascript:x', extra: 1 },
      false,
    );
    expect(checked.ok && checked.value).to.deep.include({
      authMethod: 'none',
      clientName: null,
      logoUri: null,
      redirectUris: base.redirect_uris,
    });
  });

  const refused: [string, Record<string, unknown>][] = [
    ['another client_id', { client_id: 'https://app.example/other.json' }],
    ['no redirect_uris', { redirect_uris: [] }],
    ['a redirect_uri on another origin', { redirect_uris: ['https://evil.example/cb'] }],
    ['a redirect_uri with a fragment', { redirect_uris: ['https://app.example/cb#x'] }],
    ['client_secret_basic', { token_endpoint_auth_method: 'client_secret_basic' }],
    ['client_secret_jwt', { token_endpoint_auth_method: 'client_secret_jwt' }],
    ['a client_secret member', { client_secret: 'x' }],
    ['private_key_jwt without keys', { token_endpoint_auth_method: 'private_key_jwt' }],
    [
      'private_key_jwt with both jwks and jwks_uri',
      {
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ kty: 'RSA', n: rsaModulus, e: 'AQAB' }] },
        jwks_uri: 'https://app.example/jwks',
      },
    ],
    [
      'a private key',
      {
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' }] },
      },
    ],
    [
      'a short RSA key',
      {
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ kty: 'RSA', n: 'A'.repeat(171), e: 'AQAB' }] },
      },
    ],
    ['grant_types without authorization_code', { grant_types: ['client_credentials'] }],
    ['response_types without code', { response_types: ['token'] }],
    ['another ID token algorithm', { id_token_signed_response_alg: 'HS256' }],
    ['a backchannel_logout_uri elsewhere', { backchannel_logout_uri: 'https://evil.example/logout' }],
    [
      'a post_logout_redirect_uri with a query',
      { post_logout_redirect_uris: ['https://app.example/bye?x=1'] },
    ],
  ];
  for (const [what, change] of refused) {
    it(`refuses ${what}`, () => {
      expect(checkClientDocument(ID, { ...base, ...change }, false).ok).to.equal(false);
    });
  }

  it('keeps a document for its max-age, at most a day, and not at all with no-store or without one', () => {
    expect(documentLifetimeSeconds('public, max-age=600')).to.equal(600);
    expect(documentLifetimeSeconds('max-age=999999')).to.equal(86_400);
    expect(documentLifetimeSeconds('no-store, max-age=600')).to.equal(0);
    expect(documentLifetimeSeconds(null)).to.equal(0);
  });
});

describe('client authentication', () => {
  const assertion = { type: JWT_BEARER_ASSERTION, jwt: 'a.b.c', issuer: ID, subject: ID };

  it('names the client by body, Basic with an empty password or assertion, when they agree', () => {
    const named = claimedClient({
      ...NO_CLIENT_CREDENTIALS,
      bodyClientId: ID,
      basic: { username: ID, password: '' },
      assertion,
    });
    expect(named.ok && named.value).to.deep.equal({ clientId: ID, assertion: 'a.b.c' });
    expect(claimedClient(NO_CLIENT_CREDENTIALS)).to.deep.equal({ ok: true, value: null });
  });

  it('refuses any secret, names that disagree, and an assertion whose iss is not its sub', () => {
    for (const credentials of [
      { ...NO_CLIENT_CREDENTIALS, bodyClientId: ID, secret: true },
      { ...NO_CLIENT_CREDENTIALS, basic: { username: ID, password: 'pw' } },
      {
        ...NO_CLIENT_CREDENTIALS,
        bodyClientId: ID,
        basic: { username: 'https://other.example', password: '' },
      },
      { ...NO_CLIENT_CREDENTIALS, assertion: { ...assertion, subject: 'https://other.example' } },
      { ...NO_CLIENT_CREDENTIALS, assertion: { ...assertion, type: 'urn:other' } },
    ])
      expect(claimedClient(credentials).ok, JSON.stringify(credentials)).to.equal(false);
  });

  it('takes an assertion for this server, living at most 10 minutes, expired by at most 60 s', () => {
    const now = 1_000_000;
    const good = { iss: ID, sub: ID, aud: ['https://l2.example/oauth/token'], exp: now + 60, jti: 'j1' };
    const audiences = ['https://l2.example', 'https://l2.example/oauth/token'];
    expect(checkAssertionClaims(good, ID, audiences, now)).to.deep.equal({ ok: true, value: 'j1' });
    expect(checkAssertionClaims({ ...good, exp: now - 59 }, ID, audiences, now).ok).to.equal(true);
    expect(checkAssertionClaims({ ...good, exp: now - 61 }, ID, audiences, now).ok).to.equal(false);
    expect(checkAssertionClaims({ ...good, exp: now + 601 }, ID, audiences, now).ok).to.equal(false);
    expect(
      checkAssertionClaims({ ...good, aud: 'https://elsewhere.example' }, ID, audiences, now).ok,
    ).to.equal(false);
    expect(checkAssertionClaims({ ...good, jti: undefined }, ID, audiences, now).ok).to.equal(false);
  });
});
