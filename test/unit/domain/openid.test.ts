import { expect } from 'chai';
import {
  idTokenClaims,
  openIdGrantOf,
  parseOpenIdParameters,
  profileClaims,
  signInNeeded,
  type OpenIdParameters,
} from '../../../src/domain/openid.js';
import { sessionClaims, toSeconds } from '../../../src/domain/token.js';
import { aUsername, L2_SERVER, T0 } from '../../support/builders.js';

const parsed = (query: Record<string, unknown>): OpenIdParameters => {
  const result = parseOpenIdParameters(query);
  if (!result.ok) throw new Error(result.error.description);
  return result.value;
};
const refusal = (query: Record<string, unknown>) => {
  const result = parseOpenIdParameters(query);
  return result.ok ? null : result.error.error;
};
const session = sessionClaims({
  username: aUsername('alice'),
  l2Server: L2_SERVER,
  now: T0,
  jti: 's-1',
  amr: ['pwd'],
});
const t0 = toSeconds(T0);

describe('OpenID Connect parameters (API.md §2.5)', () => {
  it('reads openid and profile from scope, ignoring l1 and unknown values; profile only with openid', () => {
    expect(parsed({ scope: 'openid profile l1 email' })).to.include({ openid: true, profile: true });
    expect(parsed({ scope: 'profile' })).to.include({ openid: false, profile: false });
    expect(parsed({})).to.include({ openid: false, profile: false, nonce: null, maxAge: null });
  });

  it('keeps a nonce of up to 512 characters unchanged, and refuses a longer one', () => {
    expect(parsed({ nonce: 'n'.repeat(512) }).nonce).to.equal('n'.repeat(512));
    expect(refusal({ nonce: 'n'.repeat(513) })).to.equal('invalid_request');
  });

  it('reads prompt values, ignoring unknown ones, and refuses none with another', () => {
    expect([...parsed({ prompt: 'login consent select_account' }).prompt]).to.have.members([
      'login',
      'consent',
    ]);
    expect(refusal({ prompt: 'none consent' })).to.equal('invalid_request');
    expect([...parsed({ prompt: 'none' }).prompt]).to.deep.equal(['none']);
  });

  it('reads max_age as whole seconds ≥ 0 and refuses anything else', () => {
    expect(parsed({ max_age: '0' }).maxAge).to.equal(0);
    expect(parsed({ max_age: '3600' }).maxAge).to.equal(3600);
    for (const bad of ['-1', '1.5', '1e3', '', ' 5', '0x10', '99999999999'])
      expect(refusal({ max_age: bad }), bad).to.equal('invalid_request');
  });

  it('refuses response_mode other than query, request, request_uri and any parameter given twice', () => {
    expect(parsed({ response_mode: 'query' }).openid).to.equal(false);
    expect(refusal({ response_mode: 'fragment' })).to.equal('invalid_request');
    expect(refusal({ request: 'x' })).to.equal('request_not_supported');
    expect(refusal({ request_uri: 'https://x' })).to.equal('request_uri_not_supported');
    expect(refusal({ nonce: ['a', 'b'] })).to.equal('invalid_request');
  });

  it('grants openid l1 or openid profile l1, and nothing for a §2.3 request', () => {
    expect(openIdGrantOf(parsed({ scope: 'openid', nonce: 'x' }))).to.deep.equal({
      scope: 'openid l1',
      nonce: 'x',
    });
    expect(openIdGrantOf(parsed({ scope: 'openid profile' }))?.scope).to.equal('openid profile l1');
    expect(openIdGrantOf(parsed({ scope: 'l1' }))).to.equal(null);
  });
});

describe('when the person signs in again (API.md §2.5: prompt=login, max_age)', () => {
  const needed = (query: Record<string, string>, now: number, signedInAfter: number | null = null) =>
    signInNeeded({ params: parsed(query), session, now, signedInAfter });

  it('always when signed out; never without prompt=login or max_age', () => {
    expect(signInNeeded({ params: parsed({}), session: null, now: t0, signedInAfter: null })).to.equal(true);
    expect(needed({}, t0 + 86_400)).to.equal(false);
  });

  it('prompt=login and max_age=0: unless the session signed in after the request first arrived', () => {
    for (const query of [{ prompt: 'login' }, { max_age: '0' }] as Record<string, string>[]) {
      expect(needed(query, t0 + 10)).to.equal(true);
      expect(needed(query, t0 + 10, t0 + 1)).to.equal(true); // signed in before the request arrived
      expect(needed(query, t0 + 10, t0)).to.equal(false); // the sign-in the request asked for
    }
  });

  it('max_age=N: when the session signed in more than N seconds before the request arrived', () => {
    expect(needed({ max_age: '60' }, t0 + 60)).to.equal(false);
    expect(needed({ max_age: '60' }, t0 + 61)).to.equal(true);
  });
});

describe('the ID token claims (API.md §2.5)', () => {
  it('names the client as aud and azp, the session as auth_time, amr and sid, lives at most 600 s', () => {
    const claims = idTokenClaims({
      issuer: L2_SERVER,
      clientId: 'https://l1.example',
      session,
      grant: { scope: 'openid profile l1', nonce: 'n-1' },
      now: t0 + 30,
      profile: profileClaims({
        username: 'alice',
        displayName: null,
        avatarUrl: null,
        actorUrl: `${L2_SERVER}/users/alice`,
      }),
    });
    expect(claims).to.deep.equal({
      iss: L2_SERVER,
      sub: 'alice',
      aud: 'https://l1.example',
      azp: 'https://l1.example',
      iat: t0 + 30,
      exp: claims.exp,
      auth_time: t0,
      nonce: 'n-1',
      amr: ['pwd'],
      sid: 's-1',
      preferred_username: 'alice',
      name: 'alice',
      profile: `${L2_SERVER}/users/alice`,
    });
    expect(claims.exp - claims.iat)
      .to.be.above(0)
      .and.at.most(600);
  });

  it('uses the display name as name and the avatar as picture when there are', () => {
    expect(
      profileClaims({
        username: 'alice',
        displayName: 'Alice A.',
        avatarUrl: 'https://cdn/a.png',
        actorUrl: 'u',
      }),
    ).to.include({ name: 'Alice A.', picture: 'https://cdn/a.png' });
  });
});
