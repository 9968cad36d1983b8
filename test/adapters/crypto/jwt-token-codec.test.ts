import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { JwtTokenCodec, keyIdOf } from '../../../src/adapters/crypto/jwt-token-codec.js';
import type { TokenClaims } from '../../../src/domain/token.js';
import { validClaims as forged } from '../../support/forge.js';

const validClaims = () => forged() as unknown as TokenClaims;

const OLD = Buffer.from('o'.repeat(40));
const NEW = Buffer.from('n'.repeat(40));
const OTHER = Buffer.from('x'.repeat(40));
const header = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as object;

describe('JwtTokenCodec: secret rotation', () => {
  it('names the signing secret in the kid header, without telling anything about it', () => {
    const { token } = new JwtTokenCodec(NEW).sign(validClaims());
    expect(header(token)).to.deep.equal({ alg: 'HS256', typ: 'JWT', kid: keyIdOf(NEW) });
    expect(keyIdOf(NEW))
      .to.match(/^[A-Za-z0-9_-]{16}$/)
      .and.not.equal(keyIdOf(OLD));
    expect(keyIdOf(NEW)).to.not.include(NEW.toString().slice(0, 4));
  });

  it('verifies tokens of the previous secret until they expire, and signs only with the current one', () => {
    const before = new JwtTokenCodec(OLD).sign(validClaims()).token;
    const rotated = new JwtTokenCodec(NEW, OLD);
    expect(rotated.decode(before)).to.not.equal(null);
    const after = rotated.sign(validClaims()).token;
    expect((header(after) as { kid: string }).kid).to.equal(keyIdOf(NEW));
    expect(rotated.decode(after)).to.not.equal(null);
    // Once the previous secret is removed, its tokens no longer verify; the new ones still do.
    const done = new JwtTokenCodec(NEW);
    expect(done.decode(before)).to.equal(null);
    expect(done.decode(after)).to.not.equal(null);
  });

  it('tries a token without kid (made before key ids) with the current secret, then the previous one', () => {
    const legacy = (secret: Buffer) => jwt.sign(validClaims(), secret, { algorithm: 'HS256' });
    const rotated = new JwtTokenCodec(NEW, OLD);
    expect(rotated.decode(legacy(OLD))).to.not.equal(null);
    expect(rotated.decode(legacy(NEW))).to.not.equal(null);
    expect(rotated.decode(legacy(OTHER))).to.equal(null);
  });

  it('refuses a token naming another secret, or naming one secret and signed with the other', () => {
    const rotated = new JwtTokenCodec(NEW, OLD);
    const named = (kid: string, secret: Buffer) =>
      jwt.sign(validClaims(), secret, { algorithm: 'HS256', keyid: kid });
    expect(rotated.decode(named('someone-else', OTHER))).to.equal(null);
    expect(rotated.decode(named(keyIdOf(OLD), NEW))).to.equal(null);
    expect(rotated.decode(named(keyIdOf(NEW), OLD))).to.equal(null);
    expect(rotated.decode('not-a-header.x.y')).to.equal(null);
  });
});
