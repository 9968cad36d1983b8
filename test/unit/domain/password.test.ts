import { expect } from 'chai';
import { checkNewPassword, passwordBytesForHashing, passwordLength } from '../../../src/domain/password.js';

describe('password rules', () => {
  it('hashes only the first 72 UTF-8 bytes', () => {
    const bytes = passwordBytesForHashing('x'.repeat(100));
    expect(bytes.length).to.equal(72);
  });

  it('cuts a multi-byte character at byte 72 exactly as bcrypt would see it', () => {
    const bytes = passwordBytesForHashing(`${'a'.repeat(71)}é`);
    expect(bytes.length).to.equal(72);
    expect(bytes[71]).to.equal(0xc3);
    expect(Buffer.from(passwordBytesForHashing(`${'a'.repeat(71)}ê`)).equals(Buffer.from(bytes))).to.equal(
      true,
    );
  });

  it('refuses a NUL character anywhere in a new password, and never hashes one', () => {
    for (const password of ['\u0000'.repeat(8), 'abcdefgh\u0000', '\u0000abcdefgh']) {
      expect(checkNewPassword(password)).to.deep.equal({ ok: false, error: 'password_has_nul' });
      expect(() => passwordBytesForHashing(password)).to.throw(RangeError);
    }
  });

  it('refuses unpaired surrogates in a new password, and keeps surrogate pairs', () => {
    expect(checkNewPassword('\ud800'.repeat(8))).to.deep.equal({ ok: false, error: 'password_not_text' });
    expect(checkNewPassword('😀'.repeat(8)).ok).to.equal(true);
  });

  it('keeps a short password whole', () => {
    expect(Buffer.from(passwordBytesForHashing('pässwörd')).toString('utf8')).to.equal('pässwörd');
  });

  it('counts characters as code points, so 8 emoji are 8 characters', () => {
    expect(passwordLength('😀'.repeat(8))).to.equal(8);
    expect(checkNewPassword('😀'.repeat(7)).ok).to.equal(false);
    expect(checkNewPassword('😀'.repeat(8)).ok).to.equal(true);
  });

  it('accepts 8 to 4096 characters', () => {
    expect(checkNewPassword('1234567').ok).to.equal(false);
    expect(checkNewPassword('12345678').ok).to.equal(true);
    expect(checkNewPassword('x'.repeat(4096)).ok).to.equal(true);
    expect(checkNewPassword('x'.repeat(4097)).ok).to.equal(false);
  });
});
