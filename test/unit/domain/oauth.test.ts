import { expect } from 'chai';
import {
  AUTHORIZATION_CODE_LIFETIME_SECONDS,
  checkCodeBinding,
  grantedCode,
  parseAuthorizationRequest,
  parseTokenRequest,
  redirectUriBelongsTo,
  redirectWith,
  type AuthorizationRequest,
} from '../../../src/domain/oauth.js';
import { sessionClaims } from '../../../src/domain/token.js';
import { anL1Server, aUsername, later, T0 } from '../../support/builders.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const VERIFIER = 'dBjftJeZ4CVP-mJ92K9ZBDXfbSkn6sC7x6dQSHN1aEA';

const authorizeQuery = (overrides: Record<string, string | undefined> = {}) => ({
  response_type: 'code',
  client_id: 'https://L1.Example:443/studio/',
  redirect_uri: 'https://l1.example/studio/auth/callback',
  state: 'xyz',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  ...overrides,
});

const refusal = (query: Record<string, string | undefined>) => {
  const result = parseAuthorizationRequest(query);
  return result.ok ? null : result.error.type;
};

describe('"Sign in with L2" requests (API.md §2.3)', () => {
  describe('redirect URIs', () => {
    const client = anL1Server('https://l1.example/studio');
    for (const uri of [
      'https://l1.example/studio',
      'https://l1.example/studio/auth/callback',
      'https://l1.example/studio/cb?keep=1',
    ])
      it(`accepts ${uri} for https://l1.example/studio`, () =>
        expect(redirectUriBelongsTo(uri, client)).to.equal(true));
    for (const uri of [
      'https://l1.example/studio2/cb',
      'https://l1.example/cb',
      'http://l1.example/studio/cb',
      'https://l1.example:8443/studio/cb',
      'https://evil.example/studio/cb',
      'https://l1.example.evil.example/studio/cb',
      'https://user@l1.example/studio/cb',
      'https://l1.example/studio/cb#fragment',
      '/studio/cb',
      'not a url',
    ])
      it(`refuses ${uri} for https://l1.example/studio`, () =>
        expect(redirectUriBelongsTo(uri, client)).to.equal(false));
  });

  it('reads a good request, the client normalised', () => {
    const result = parseAuthorizationRequest(authorizeQuery());
    expect(result).to.deep.equal({
      ok: true,
      value: {
        clientId: 'https://l1.example/studio',
        redirectUri: 'https://l1.example/studio/auth/callback',
        state: 'xyz',
        codeChallenge: CHALLENGE,
      },
    });
    expect(parseAuthorizationRequest(authorizeQuery({ state: undefined }))).to.deep.include({ ok: true });
  });

  it('refuses a client_id that is no L1 server URL', () => {
    for (const clientId of [undefined, '', 'l1.example', 'https://l1.example/?q=1', 'ftp://l1.example'])
      expect(refusal(authorizeQuery({ client_id: clientId }))).to.equal('invalid_client');
  });

  it("refuses a redirect_uri outside the client's origin and path", () => {
    expect(refusal(authorizeQuery({ redirect_uri: 'https://evil.example/cb' }))).to.equal(
      'invalid_redirect_uri',
    );
    expect(refusal(authorizeQuery({ redirect_uri: undefined }))).to.equal('invalid_redirect_uri');
  });

  it('refuses PKCE missing or plain, a bad challenge, another response type, an endless state', () => {
    expect(refusal(authorizeQuery({ code_challenge_method: undefined }))).to.equal('invalid_request');
    expect(refusal(authorizeQuery({ code_challenge_method: 'plain' }))).to.equal('invalid_request');
    expect(refusal(authorizeQuery({ code_challenge: undefined }))).to.equal('invalid_request');
    expect(refusal(authorizeQuery({ code_challenge: VERIFIER.slice(0, 42) }))).to.equal('invalid_request');
    expect(refusal(authorizeQuery({ response_type: 'token' }))).to.equal('invalid_request');
    expect(refusal(authorizeQuery({ state: 'x'.repeat(1025) }))).to.equal('invalid_request');
  });

  it('adds the answer to the redirect URI, keeping its own query and leaving out what is null', () => {
    expect(redirectWith('https://l1.example/cb?keep=1', { code: 'c&d', state: null })).to.equal(
      'https://l1.example/cb?keep=1&code=c%26d',
    );
  });
});

describe('"Sign in with L2" token requests (RFC 6749 §4.1.3)', () => {
  const form = (overrides: Record<string, unknown> = {}) => ({
    grant_type: 'authorization_code',
    code: 'the-code',
    redirect_uri: 'https://l1.example/cb',
    code_verifier: VERIFIER,
    client_id: 'https://L1.example/',
    ...overrides,
  });
  const error = (fields: Record<string, unknown>) => {
    const result = parseTokenRequest(fields);
    return result.ok ? null : result.error.type;
  };

  it('reads a good request, the client normalised', () => {
    expect(parseTokenRequest(form())).to.deep.equal({
      ok: true,
      value: {
        code: 'the-code',
        redirectUri: 'https://l1.example/cb',
        codeVerifier: VERIFIER,
        clientId: 'https://l1.example',
      },
    });
  });

  it('answers with the RFC 6749 error for each flaw', () => {
    expect(error(form({ grant_type: undefined }))).to.equal('invalid_request');
    expect(error(form({ grant_type: 'client_credentials' }))).to.equal('unsupported_grant_type');
    expect(error(form({ client_id: undefined }))).to.equal('invalid_request');
    expect(error(form({ client_id: 'not a url' }))).to.equal('invalid_client');
    expect(error(form({ code: undefined }))).to.equal('invalid_request');
    expect(error(form({ code: 'c'.repeat(257) }))).to.equal('invalid_request');
    expect(error(form({ redirect_uri: undefined }))).to.equal('invalid_request');
    expect(error(form({ code_verifier: undefined }))).to.equal('invalid_request');
    expect(error(form({ code_verifier: 'short' }))).to.equal('invalid_request');
    expect(error(form({ code_verifier: `${VERIFIER}!` }))).to.equal('invalid_request');
    expect(error(form({ code: ['a', 'b'] }))).to.equal('invalid_request');
  });

  describe('a code is bound to its client, its redirect URI and its minute', () => {
    const request: AuthorizationRequest = {
      clientId: anL1Server('https://l1.example'),
      redirectUri: 'https://l1.example/cb',
      state: null,
      codeChallenge: CHALLENGE,
    };
    const session = sessionClaims({
      username: aUsername('alice'),
      l2Server: 'https://l2.example',
      now: T0,
      jti: 's',
      amr: ['pwd'],
    });
    const code = grantedCode({ codeHash: 'h', session, sessionTokenHash: 'sh', request, now: T0 });
    const exchange = (overrides: Record<string, unknown>, at = later(1000)) => {
      const parsed = parseTokenRequest(form(overrides));
      if (!parsed.ok) throw new Error(parsed.error.detail);
      const checked = checkCodeBinding(code, parsed.value, at);
      return checked.ok ? 'ok' : checked.error.type;
    };

    it('lives 60 seconds, unused', () => {
      expect(code.expiresAt).to.deep.equal(later(AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000));
      expect(code.usedAt).to.equal(null);
      expect(code.issued).to.equal(null);
    });

    it('is exchanged by its own client, at its own redirect URI, within its minute', () => {
      expect(exchange({})).to.equal('ok');
      expect(exchange({}, later(59_999))).to.equal('ok');
    });

    it('refuses another client, another redirect URI, and an expired code with invalid_grant', () => {
      expect(exchange({ client_id: 'https://l1b.example' })).to.equal('invalid_grant');
      expect(exchange({ redirect_uri: 'https://l1.example/cb2' })).to.equal('invalid_grant');
      expect(exchange({}, later(60_000))).to.equal('invalid_grant');
    });
  });
});
