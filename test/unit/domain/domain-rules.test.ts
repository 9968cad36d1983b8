import { expect } from 'chai';
import {
  allowlistScope,
  candidateRuleKeys,
  federates,
  hostKey,
  hostKeyOfUrl,
  parseRuleHost,
  ruleCovers,
  ruleKeyRange,
  type RuleHost,
} from '../../../src/domain/domain-rules.js';

const OWN = 'l2.example';

/** The canonical host an operator's input becomes, or the refusal's reason. */
function read(input: string, own = OWN): string {
  const parsed = parseRuleHost(input, own);
  return parsed.ok ? parsed.value : `refused: ${parsed.error}`;
}

/** Whether a rule for `rule` (an operator's input) covers the host of `url`. */
function covers(rule: string, url: string): boolean {
  const key = hostKeyOfUrl(url);
  expect(key, url).to.not.equal(null);
  return ruleCovers(hostKey(read(rule)), key!);
}

describe('parseRuleHost: the host an operator names in a domain rule', () => {
  it('writes an IDN as its punycode', () => {
    expect(read('bücher.example')).to.equal('xn--bcher-kva.example');
  });

  it('lower-cases a name and drops one trailing dot', () => {
    expect(read('EXAMPLE.com.')).to.equal('example.com');
    expect(read('  Social.Example.COM ')).to.equal('social.example.com');
  });

  it('keeps an IPv6 literal in brackets, whether given with them or bare', () => {
    expect(read('[::1]')).to.equal('[::1]');
    expect(read('::1')).to.equal('[::1]');
    expect(read('0:0:0:0:0:0:0:1')).to.equal('[::1]');
  });

  it('writes an IPv4 address in dotted form, whatever form it was given in', () => {
    expect(read('127.1')).to.equal('127.0.0.1');
    expect(read('0x7f.0.0.1')).to.equal('127.0.0.1');
    expect(read('203.0.113.9')).to.equal('203.0.113.9');
  });

  it('refuses a port, saying a rule covers every port', () => {
    expect(read('a.example:443')).to.match(/^refused: a\.example:443: a host has no port/);
    expect(read('[::1]:443')).to.match(/^refused: .*no port/);
  });

  it('refuses a scheme, a wildcard, a path and userinfo, each with its reason', () => {
    expect(read('https://a')).to.match(/^refused: https:\/\/a: a host has no scheme/);
    expect(read('*.a')).to.match(/^refused: \*\.a: a host has no wildcard: example\.com already covers/);
    expect(read('a/b')).to.match(/^refused: a\/b: a host has no path/);
    expect(read('u@a')).to.match(/^refused: u@a: a host has no user part/);
  });

  it('refuses what is no host at all', () => {
    expect(read('')).to.match(/^refused: a host is needed/);
    expect(read('a..b')).to.match(/not a host name or an IP address$/);
    expect(read('1.2.3.4.5')).to.match(/not a host name or an IP address$/);
    expect(read('ex ample')).to.match(/^refused: /);
    expect(read('a%41')).to.match(/^refused: /);
    expect(read(`${'a'.repeat(64)}.example`)).to.match(/not a host name or an IP address$/);
  });

  it("refuses the service's own host, however it is spelt", () => {
    expect(read('l2.example')).to.match(/^refused: l2\.example: that is this service's own host/);
    expect(read('L2.Example.')).to.match(/own host/);
    expect(read('127.1', '127.0.0.1')).to.match(/own host/);
    expect(read('::1', '[::1]')).to.match(/own host/);
  });

  it("accepts a parent or a subdomain of the service's own host (only the host itself is refused)", () => {
    expect(read('example')).to.equal('example');
    expect(read('social.l2.example')).to.equal('social.l2.example');
  });
});

describe('hostKey and ruleCovers: which hosts a rule covers', () => {
  it('keys a name by its labels reversed and an address by itself in brackets', () => {
    expect(hostKey('social.example.com')).to.equal('com.example.social.');
    expect(hostKey('example.com.')).to.equal('com.example.');
    expect(hostKey('127.0.0.1')).to.equal('[127.0.0.1]');
    expect(hostKey('[::1]')).to.equal('[::1]');
  });

  it('covers the name and every subdomain of it', () => {
    expect(covers('example.com', 'https://example.com/users/bob')).to.equal(true);
    expect(covers('example.com', 'https://social.example.com/users/bob')).to.equal(true);
    expect(covers('example.com', 'https://a.b.example.com:8443/inbox')).to.equal(true);
  });

  it('does not cover a name that only ends the same, nor a parent, nor one that extends it', () => {
    expect(covers('example.com', 'https://notexample.com/users/bob')).to.equal(false);
    expect(covers('example.com', 'https://example.com.evil/users/bob')).to.equal(false);
    expect(covers('social.example.com', 'https://example.com/users/bob')).to.equal(false);
  });

  it('judges the host of a URL however the peer spells it (case, Unicode, trailing dot)', () => {
    expect(covers('bücher.example', 'https://SOCIAL.Bücher.Example./users/bob')).to.equal(true);
    expect(covers('EXAMPLE.com', 'https://example.COM./inbox')).to.equal(true);
  });

  it('covers an address exactly, on every port', () => {
    expect(covers('127.0.0.1', 'http://127.0.0.1:8080/users/bob')).to.equal(true);
    expect(covers('127.0.0.1', 'http://127.1/users/bob')).to.equal(true);
    expect(covers('127.0.0.1', 'http://127.0.0.10/users/bob')).to.equal(false);
    expect(covers('127.0.0.1', 'http://127.0.0.2/users/bob')).to.equal(false);
    expect(covers('::1', 'http://[::1]:3000/inbox')).to.equal(true);
    expect(covers('::1', 'http://[::10]/inbox')).to.equal(false);
  });

  it('judges an IPv4-mapped IPv6 literal as the IPv4 address it reaches', () => {
    expect(read('::ffff:127.0.0.1')).to.equal('127.0.0.1');
    expect(covers('127.0.0.1', 'http://[::ffff:127.0.0.1]:8080/inbox')).to.equal(true);
    expect(covers('127.0.0.1', 'http://[::ffff:7f00:2]/inbox')).to.equal(false);
  });

  it('has no key for what is no URL with a host', () => {
    expect(hostKeyOfUrl('not a url')).to.equal(null);
    expect(hostKeyOfUrl('mailto:bob@example.com')).to.equal(null);
  });
});

describe('candidateRuleKeys and ruleKeyRange: the rules found by one indexed read', () => {
  it('lists every key of a rule that could cover a name, and only the address for an address', () => {
    expect(candidateRuleKeys(hostKey('social.example.com'))).to.deep.equal([
      'com.',
      'com.example.',
      'com.example.social.',
    ]);
    expect(candidateRuleKeys(hostKey('127.0.0.1'))).to.deep.equal(['[127.0.0.1]']);
  });

  it('finds a covering rule among the candidates exactly when ruleCovers says so', () => {
    const hosts = ['example.com', 'social.example.com', 'notexample.com', 'com', '127.0.0.1', '[::1]'];
    for (const rule of hosts) {
      for (const host of hosts) {
        const found = candidateRuleKeys(hostKey(host)).includes(hostKey(rule));
        expect(found, `${rule} over ${host}`).to.equal(ruleCovers(hostKey(rule), hostKey(host)));
      }
    }
  });

  it('puts exactly the covered keys inside the range of a rule', () => {
    const inside = (rule: string, host: string) => {
      const { from, below } = ruleKeyRange(hostKey(rule));
      const key = hostKey(host);
      return key >= from && key < below;
    };
    expect(ruleKeyRange('com.example.')).to.deep.equal({ from: 'com.example.', below: 'com.example/' });
    expect(inside('example.com', 'example.com')).to.equal(true);
    expect(inside('example.com', 'zz.social.example.com')).to.equal(true);
    expect(inside('example.com', 'notexample.com')).to.equal(false);
    expect(inside('example.com', 'example.com.evil')).to.equal(false);
    expect(inside('example.com', 'example-1.com')).to.equal(false);
    expect(inside('127.0.0.1', '127.0.0.1')).to.equal(true);
    expect(inside('127.0.0.1', '127.0.0.10')).to.equal(false);
  });
});

describe('federates: blocklist and allowlist mode', () => {
  it('federates in blocklist mode unless a block covers the host, an allow rule changing nothing', () => {
    expect(federates({ block: false, allow: false }, 'blocklist')).to.equal(true);
    expect(federates({ block: false, allow: true }, 'blocklist')).to.equal(true);
    expect(federates({ block: true, allow: false }, 'blocklist')).to.equal(false);
  });

  it('federates in allowlist mode only when allowed, a block always winning', () => {
    expect(federates({ block: false, allow: true }, 'allowlist')).to.equal(true);
    expect(federates({ block: false, allow: false }, 'allowlist')).to.equal(false);
    expect(federates({ block: true, allow: true }, 'allowlist')).to.equal(false);
    expect(federates({ block: true, allow: true }, 'blocklist')).to.equal(false);
  });

  it('scopes followers in allowlist mode to the allowed keys, without one another already covers', () => {
    const hosts = ['social.example.com', 'example.com', '127.0.0.1', 'example.com'] as RuleHost[];
    expect(allowlistScope(hosts)).to.deep.equal({ allowKeys: ['[127.0.0.1]', 'com.example.'] });
  });
});
