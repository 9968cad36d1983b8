import { expect } from 'chai';
import { passkeyName } from '../../../src/domain/account-security.js';
import { canonicalRecoveryCode, RECOVERY_CODE_ALPHABET } from '../../../src/domain/recovery-code.js';
import { methodsOf, parseSignInMethods, passkeyMethods } from '../../../src/domain/sign-in-methods.js';

describe('sign-in methods (amr, RFC 8176)', () => {
  it('says hwk for a passkey bound to its device and swk for one that may be synced, with mfa', () => {
    expect(passkeyMethods(false)).to.deep.equal(['hwk', 'mfa']);
    expect(passkeyMethods(true)).to.deep.equal(['swk', 'mfa']);
  });

  it('reads a token without amr as a password sign-in', () => {
    expect(methodsOf({})).to.deep.equal(['pwd']);
    expect(methodsOf({ amr: ['pwd', 'otp', 'mfa'] })).to.deep.equal(['pwd', 'otp', 'mfa']);
  });

  it('accepts only a non-empty list of known methods, each once', () => {
    expect(parseSignInMethods(['pwd', 'otp', 'mfa']).ok).to.equal(true);
    for (const bad of [
      [],
      ['pwd', 'pwd'],
      ['face'],
      'pwd',
      [1],
      null,
      ['pwd', 'otp', 'hwk', 'swk', 'mfa', 'pwd'],
    ])
      expect(parseSignInMethods(bad).ok, JSON.stringify(bad)).to.equal(false);
  });
});

describe('recovery codes as people type them', () => {
  it('has 32 distinct symbols without i, l, o and u (Crockford base32)', () => {
    expect(new Set(RECOVERY_CODE_ALPHABET).size).to.equal(32);
    expect(RECOVERY_CODE_ALPHABET).not.to.match(/[ilou]/);
  });

  it('reads capitals, spaces, missing hyphens and look-alike letters as the code itself', () => {
    const canonical = '7kp43nwxx4d5hc8y';
    for (const typed of [
      '7kp4-3nwx-x4d5-hc8y',
      '7KP4 3NWX X4D5 HC8Y',
      '7kp43nwxx4d5hc8y',
      ' 7kp4-3nwx x4d5-HC8Y ',
    ])
      expect(canonicalRecoveryCode(typed), typed).to.equal(canonical);
    expect(canonicalRecoveryCode('0o1l-iabc-defg-hjkm')).to.equal('00111abcdefghjkm');
  });

  it('refuses what cannot be a code: too short, too long, symbols outside the alphabet', () => {
    for (const typed of [
      '',
      '7kp4-3nwx-x4d5',
      '7kp4-3nwx-x4d5-hc8y-aaaa',
      '7kp4-3nwx-x4d5-hc8u',
      'ééééééééééééééééé',
    ])
      expect(canonicalRecoveryCode(typed), typed).to.equal(null);
  });
});

describe('passkey names', () => {
  it('are trimmed, their inner runs of white space made one space', () => {
    expect(passkeyName('  My \t  phone \n')).to.equal('My phone');
  });
});
