import { methodsOf } from '../../../src/domain/sign-in-methods.js';
import { expect } from 'chai';
import { normaliseL1Server, type L1ServerUrl } from '../../../src/domain/l1-server.js';
import {
  checkLifetime,
  checkScope,
  parseClaims,
  scopedClaims,
  sessionClaims,
  TOKEN_LIFETIME_SECONDS,
} from '../../../src/domain/token.js';
import { normaliseUsername, type Username } from '../../../src/domain/user.js';

const L2 = 'https://l2.example';
const NOW = new Date('2026-11-22T10:00:00.000Z');
const alice = (normaliseUsername('alice') as { value: Username }).value;
const l1 = (url: string) => (normaliseL1Server(url) as { value: L1ServerUrl }).value;
const session = sessionClaims({ username: alice, l2Server: L2, now: NOW, jti: 'j1', amr: ['pwd'] });

describe('token claims', () => {
  it('gives a session token every claim of API.md and a 30-day life', () => {
    expect(session).to.deep.equal({
      sub: 'alice',
      username: 'alice',
      l2_server: L2,
      iss: L2,
      iat: NOW.getTime() / 1000,
      exp: NOW.getTime() / 1000 + TOKEN_LIFETIME_SECONDS,
      jti: 'j1',
      amr: ['pwd'],
    });
  });

  it('gives a scoped token the amr of its session', () => {
    const strong = sessionClaims({ username: alice, l2Server: L2, now: NOW, jti: 'j3', amr: ['hwk', 'mfa'] });
    const scoped = scopedClaims({ session: strong, l1Server: l1('https://l1.example'), now: NOW, jti: 'j4' });
    expect(scoped.amr).to.deep.equal(['hwk', 'mfa']);
    expect(parseClaims(scoped, L2)).to.deep.equal({ ok: true, value: scoped });
  });

  it('reads a token issued before amr existed (no claim) as a password sign-in', () => {
    const { amr: _, ...old } = session;
    const parsed = parseClaims(old, L2);
    expect(parsed.ok && methodsOf(parsed.value)).to.deep.equal(['pwd']);
  });

  it('never lets a scoped token outlive its session', () => {
    const later = new Date(NOW.getTime() + 10 * 24 * 3600 * 1000);
    const scoped = scopedClaims({ session, l1Server: l1('https://l1.example'), now: later, jti: 'j2' });
    expect(scoped.exp).to.equal(session.exp);
    expect(scoped.sid).to.equal('j1');
    expect(scoped.l1_server).to.equal('https://l1.example');
  });

  it('accepts exactly the claims this service issues', () => {
    expect(parseClaims({ ...session }, L2).ok).to.equal(true);
  });

  const broken: [string, unknown][] = [
    ['an array payload', [1, 2]],
    ['a string payload', 'hello'],
    ['no jti', { ...session, jti: undefined }],
    ['an empty jti', { ...session, jti: '' }],
    ['no sub', { ...session, sub: undefined }],
    ['username differing from sub', { ...session, username: 'bob' }],
    ['no l2_server', { ...session, l2_server: undefined }],
    ['another l2_server', { ...session, l2_server: 'https://other.example' }],
    ['another iss', { ...session, iss: 'https://other.example' }],
    ['no iss', { ...session, iss: undefined }],
    ['a sub that is no username', { ...session, sub: 'x y', username: 'x y' }],
    ['a sub in capitals', { ...session, sub: 'ALICE', username: 'ALICE' }],
    ['exp as a string', { ...session, exp: String(session.exp) }],
    ['a fractional exp', { ...session, exp: session.exp + 0.5 }],
    ['no iat', { ...session, iat: undefined }],
    ['a life over 30 days', { ...session, exp: session.iat + TOKEN_LIFETIME_SECONDS + 1 }],
    ['exp before iat', { ...session, exp: session.iat - 1 }],
    ['l1_server without sid', { ...session, l1_server: 'https://l1.example' }],
    ['sid without l1_server', { ...session, sid: 'j0' }],
    ['an amr that is no array', { ...session, amr: 'pwd' }],
    ['an empty amr', { ...session, amr: [] }],
    ['an amr with an unknown method', { ...session, amr: ['pwd', 'face'] }],
    ['an amr naming a method twice', { ...session, amr: ['pwd', 'pwd'] }],
  ];
  for (const [name, payload] of broken) {
    it(`rejects a payload with ${name}`, () =>
      expect(parseClaims(payload, L2)).to.deep.equal({ ok: false, error: 'token_invalid' }));
  }

  it('expires a token at exp and not a second before', () => {
    const atExp = new Date(session.exp * 1000);
    expect(checkLifetime(session, new Date(atExp.getTime() - 1000)).ok).to.equal(true);
    const expired = checkLifetime(session, atExp);
    expect(expired.ok).to.equal(false);
    expect(!expired.ok && expired.error.type).to.equal('token_expired');
  });

  it('refuses a token issued more than a minute in the future', () => {
    const early = new Date(NOW.getTime() - 61_000);
    expect(!checkLifetime(session, early).ok).to.equal(true);
    expect(checkLifetime(session, new Date(NOW.getTime() - 59_000)).ok).to.equal(true);
  });

  it('matches a scoped token only at its own L1 server', () => {
    const scoped = scopedClaims({ session, l1Server: l1('https://l1.example'), now: NOW, jti: 'j2' });
    expect(checkScope(scoped, l1('https://L1.example:443/')).ok).to.equal(true);
    expect(checkScope(scoped, l1('https://l1.example/a')).ok).to.equal(false);
    expect(checkScope(scoped, null).ok).to.equal(false);
    expect(checkScope(session, l1('https://anywhere.example')).ok).to.equal(true);
    expect(checkScope(session, null).ok).to.equal(true);
  });
});
