import { expect } from 'chai';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JWK,
} from 'jose';
import { NoticeSigningKeys, noticeKeyIdOf } from '../../../src/adapters/crypto/notice-signing-keys.js';
import { logoutTokenClaims } from '../../../src/domain/logout-token.js';
import { anL1Server, aRevocation, T0 } from '../../support/builders.js';
import { newNoticeKeyPem } from '../../support/notice-key.js';

const claims = () =>
  logoutTokenClaims(
    aRevocation({ l1Server: anL1Server('https://l1.example'), sessionJti: 's-1' }).notice!,
    new Date(),
  );

describe('notice signing keys (API.md §2.1, §2.4)', () => {
  it('signs an ES256 logout token, naming its key by its RFC 7638 thumbprint, that verifies with the JWKS', async () => {
    const keys = new NoticeSigningKeys(newNoticeKeyPem());
    const jwks = keys.jwks() as { keys: JWK[] };
    const signed = claims();
    const token = await keys.sign(signed);

    expect(decodeProtectedHeader(token)).to.deep.equal({ alg: 'ES256', kid: keys.kid, typ: 'logout+jwt' });
    expect(await calculateJwkThumbprint(jwks.keys[0]!)).to.equal(keys.kid);
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      algorithms: ['ES256'],
      typ: 'logout+jwt',
      audience: 'https://l1.example',
    });
    expect(payload).to.deep.equal(signed);
  });

  it('publishes public keys only: the current one, then the previous one, never a private part', async () => {
    const previous = newNoticeKeyPem();
    const keys = new NoticeSigningKeys(newNoticeKeyPem(), previous);
    const { keys: published } = keys.jwks() as { keys: JWK[] };

    expect(published.map((k) => k.kid)).to.deep.equal([keys.kid, noticeKeyIdOf(previous)]);
    for (const key of published) {
      expect(Object.keys(key).sort()).to.deep.equal(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
      expect(key).to.include({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
      await importJWK(key, 'ES256');
    }
    // A token the previous key signed (before a rotation) still verifies against the published set.
    const before = await new NoticeSigningKeys(previous).sign(claims());
    await jwtVerify(before, createLocalJWKSet({ keys: published }), { algorithms: ['ES256'] });
  });

  it('lists a key once when the previous file holds the current key (step 2 of a rotation undone)', () => {
    const pem = newNoticeKeyPem();
    expect((new NoticeSigningKeys(pem, pem).jwks() as { keys: JWK[] }).keys).to.have.length(1);
  });

  it('gives every holder of the key file the same kid', () => {
    const pem = newNoticeKeyPem();
    expect(new NoticeSigningKeys(pem).kid).to.equal(new NoticeSigningKeys(pem).kid);
    expect(new NoticeSigningKeys(pem).kid).not.to.equal(new NoticeSigningKeys(newNoticeKeyPem()).kid);
  });

  it('signs a token whose time claims are the ones given (issued for the attempt)', async () => {
    const keys = new NoticeSigningKeys(newNoticeKeyPem());
    const atT0 = logoutTokenClaims(aRevocation({ l1Server: anL1Server('https://l1.example') }).notice!, T0);
    const token = await keys.sign(atT0);
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys.jwks() as { keys: JWK[] }), {
      currentDate: T0,
    });
    expect(payload.iat).to.equal(atT0.iat);
    expect(payload.exp).to.equal(atT0.exp);
  });
});
