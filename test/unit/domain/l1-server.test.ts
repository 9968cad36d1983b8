import { expect } from 'chai';
import { attachCallbackUrl, normaliseL1Server } from '../../../src/domain/l1-server.js';

const canonical = (input: string) => {
  const result = normaliseL1Server(input);
  return result.ok ? result.value : null;
};

describe('L1 server URL normalisation', () => {
  const sameServer: [string, string][] = [
    ['https://L1.Example:443/', 'https://l1.example'],
    ['https://l1.example', 'https://l1.example'],
    ['HTTPS://l1.example/', 'https://l1.example'],
    ['http://l1.example:80', 'http://l1.example'],
    ['https://l1.example:8443/', 'https://l1.example:8443'],
    ['https://l1.example/render/', 'https://l1.example/render'],
    ['https://l1.example/a/../render', 'https://l1.example/render'],
    ['https://l1.example/x/%2e%2e/render', 'https://l1.example/render'],
    ['https://l1.example./', 'https://l1.example'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['http://127.0.0.1:8300/', 'http://127.0.0.1:8300'],
    ['http://[::1]:8300', 'http://[::1]:8300'],
  ];
  for (const [input, expected] of sameServer) {
    it(`reads ${input} as ${expected}`, () => expect(canonical(input)).to.equal(expected));
  }

  it('keeps different paths, schemes and ports apart', () => {
    const forms = [
      'https://l1.example/a',
      'https://l1.example/b',
      'http://l1.example',
      'https://l1.example:8443',
    ];
    expect(new Set(forms.map(canonical)).size).to.equal(4);
  });

  const rejected = [
    '',
    'l1.example',
    '/relative',
    'ftp://l1.example',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://user:pw@l1.example',
    'https://l1.example@evil.test',
    'https://evil.test#@l1.example',
    'https://l1.example/?q=1',
    'https://l1.example/?',
    'https://l1.example/#frag',
    'https://l1 .example',
    `https://l1.example/${'a'.repeat(2100)}`,
  ];
  for (const input of rejected) {
    it(`rejects ${JSON.stringify(input.slice(0, 40))}`, () => expect(canonical(input)).to.equal(null));
  }

  it('puts the token into the callback URL encoded, as the only place it travels', () => {
    const l1 = canonical('https://l1.example/render')!;
    expect(attachCallbackUrl(l1 as never, 'a.b+c')).to.equal(
      'https://l1.example/render/auth/callback?token=a.b%2Bc',
    );
  });
});
