import { expect } from 'chai';
import { base32Decode, totp } from '../support/rfc6238.js';

// RFC 6238 Appendix B: the seeds (ASCII), the times and the 8-digit codes of each hash.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('the tests’ own TOTP (RFC 6238), against the RFC’s test vectors', () => {
  for (const [seconds, sha1, sha256, sha512] of VECTORS) {
    it(`gives the RFC's codes at ${seconds} s for SHA-1, SHA-256 and SHA-512`, () => {
      const at = new Date(seconds * 1000);
      expect(totp(SEEDS.sha1, at, { digits: 8 })).to.equal(sha1);
      expect(totp(SEEDS.sha256, at, { digits: 8, algorithm: 'sha256' })).to.equal(sha256);
      expect(totp(SEEDS.sha512, at, { digits: 8, algorithm: 'sha512' })).to.equal(sha512);
    });
  }

  it('decodes base32 as RFC 4648 does (its test vectors)', () => {
    expect(base32Decode('MZXW6YTBOI======').toString()).to.equal('foobar');
    expect(base32Decode('mzxw6ytb').toString()).to.equal('fooba');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString()).to.equal('12345678901234567890');
  });
});
