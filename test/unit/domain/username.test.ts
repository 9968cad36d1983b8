import { expect } from 'chai';
import { normaliseUsername } from '../../../src/domain/user.js';

describe('usernames', () => {
  it('lower-cases before checking, so Alice and alice are one name', () => {
    expect(normaliseUsername('Alice')).to.deep.equal({ ok: true, value: 'alice' });
  });

  for (const bad of ['ab', 'a'.repeat(31), 'al ice', 'alice!', 'аdmin', 'bob\u202e', 'é_user', '']) {
    it(`refuses ${JSON.stringify(bad)}`, () => expect(normaliseUsername(bad).ok).to.equal(false));
  }

  for (const good of ['abc', 'a'.repeat(30), 'user_01', '___']) {
    it(`accepts ${good}`, () => expect(normaliseUsername(good).ok).to.equal(true));
  }
});
