import { expect } from 'chai';
import { actorNameText, parseActorName } from '../../../src/domain/actor-name.js';

describe('actor names: an actor as a person names one, a URL or @user@host (API.md §4.3)', () => {
  it('reads an http(s) actor URL, dropping its fragment', () => {
    expect(parseActorName(' https://peer.example/users/bob ')).to.deep.equal({
      ok: true,
      value: { kind: 'url', url: 'https://peer.example/users/bob' },
    });
    expect(parseActorName('https://peer.example/users/bob#main-key')).to.deep.equal({
      ok: true,
      value: { kind: 'url', url: 'https://peer.example/users/bob' },
    });
  });

  it('reads @user@host and user@host as one handle, the host lower-cased and an IDN as punycode', () => {
    const handle = { kind: 'handle', user: 'Bob', host: 'peer.example' };
    expect(parseActorName('@Bob@Peer.Example')).to.deep.equal({ ok: true, value: handle });
    expect(parseActorName('Bob@peer.example')).to.deep.equal({ ok: true, value: handle });
    const idn = parseActorName('@bob@bücher.example');
    expect(idn.ok && idn.value).to.deep.equal({ kind: 'handle', user: 'bob', host: 'xn--bcher-kva.example' });
    expect(parseActorName('@bob@127.0.0.1:8080')).to.deep.equal({
      ok: true,
      value: { kind: 'handle', user: 'bob', host: '127.0.0.1:8080' },
    });
  });

  it('refuses blank, other schemes, user info, paths in a handle and a bare name, each with a reason', () => {
    for (const bad of [
      '',
      '   ',
      'bob',
      '@bob',
      'ftp://peer.example/users/bob',
      'https://user:pw@peer.example/users/bob',
      '@bob@peer.example/users',
      '@bob@@peer.example',
      'bob smith@peer.example',
      `https://peer.example/${'a'.repeat(2048)}`,
    ]) {
      const parsed = parseActorName(bad);
      expect(parsed.ok, bad).to.equal(false);
      if (!parsed.ok) expect(parsed.error).to.be.a('string').and.not.equal('');
    }
  });

  it('reads a name back as the person would write it', () => {
    expect(actorNameText({ kind: 'handle', user: 'bob', host: 'peer.example' })).to.equal(
      '@bob@peer.example',
    );
    expect(actorNameText({ kind: 'url', url: 'https://peer.example/users/bob' })).to.equal(
      'https://peer.example/users/bob',
    );
  });
});
