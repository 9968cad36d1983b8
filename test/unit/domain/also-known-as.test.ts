import { expect } from 'chai';
import {
  ALSO_KNOWN_AS_MAX,
  aliasIds,
  aliasesToResolve,
  parseAlsoKnownAs,
  sameAliases,
} from '../../../src/domain/also-known-as.js';

const alice = 'https://l2.example/users/alice';
const bob = 'https://peer.example/users/bob';

describe('also_known_as: the other accounts a Move may come from (API.md §4.3 "Moving in")', () => {
  it('reads the form’s one entry per line and a JSON list alike, blank lines dropped, duplicates once', () => {
    const fromForm = parseAlsoKnownAs(`${bob}\r\n\r\n@carol@Other.Example\n@carol@other.example\n`);
    const fromJson = parseAlsoKnownAs([bob, '@carol@other.example', bob]);
    const expected = [
      { kind: 'url', url: bob },
      { kind: 'handle', user: 'carol', host: 'other.example' },
    ];
    expect(fromForm).to.deep.equal({ ok: true, value: expected });
    expect(fromJson).to.deep.equal({ ok: true, value: expected });
  });

  it('clears with null, an empty list or an empty text', () => {
    for (const empty of [null, [], '', '\n  \n'])
      expect(parseAlsoKnownAs(empty)).to.deep.equal({ ok: true, value: [] });
  });

  it('refuses a sixth entry and a malformed one with the path also_known_as, before anything is fetched', () => {
    expect(ALSO_KNOWN_AS_MAX).to.equal(5);
    const six = Array.from({ length: 6 }, (_, i) => `https://peer.example/users/u${i}`);
    const tooMany = parseAlsoKnownAs(six);
    expect(tooMany.ok).to.equal(false);
    if (!tooMany.ok) expect(tooMany.error.path).to.equal('also_known_as');
    expect(parseAlsoKnownAs(six.slice(0, 5)).ok).to.equal(true);
    const malformed = parseAlsoKnownAs([bob, 'not an actor']);
    expect(malformed.ok).to.equal(false);
    if (!malformed.ok) {
      expect(malformed.error.path).to.equal('also_known_as');
      expect(malformed.error.message).to.contain('not an actor');
    }
  });

  it('keeps an id the profile already holds without a fetch, and resolves every other entry, in order', () => {
    const parsed = parseAlsoKnownAs(['@carol@other.example', bob, 'https://new.example/users/d']);
    if (!parsed.ok) throw new Error('refused');
    expect(aliasesToResolve(parsed.value, [bob])).to.deep.equal([
      { name: { kind: 'handle', user: 'carol', host: 'other.example' } },
      { id: bob },
      { name: { kind: 'url', url: 'https://new.example/users/d' } },
    ]);
  });

  it('collapses the same actor named twice, and refuses the user’s own actor', () => {
    expect(aliasIds([bob, 'https://other.example/users/carol', bob], alice)).to.deep.equal({
      ok: true,
      value: [bob, 'https://other.example/users/carol'],
    });
    const self = aliasIds([bob, alice], alice);
    expect(self.ok).to.equal(false);
    if (!self.ok) expect(self.error.path).to.equal('also_known_as');
    expect(sameAliases([bob], [bob])).to.equal(true);
    expect(sameAliases([bob, alice], [alice, bob])).to.equal(false);
  });
});
