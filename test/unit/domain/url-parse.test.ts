// canParseUrl answers as the URL parser does, however often it is asked: Node 20's URL.canParse starts refusing
// non-ASCII URLs after a few thousand calls, which would leave a peer's IDN host without a host key.
import { expect } from 'chai';
import { hostKeyOfUrl } from '../../../src/domain/domain-rules.js';
import { canParseUrl } from '../../../src/domain/url-parse.js';

const IDN_ACTOR = 'https://bücher.example/users/bob';
// More calls than it takes Node 20.20's URL.canParse to go wrong (a few thousand).
const MANY = 50_000;

describe('canParseUrl', () => {
  it('reads an IDN URL as a URL on every one of many calls', () => {
    let refused = 0;
    for (let i = 0; i < MANY; i++) if (!canParseUrl(IDN_ACTOR)) refused++;
    expect(refused).to.equal(0);
  });

  it('keys an IDN actor by its punycode host after many calls, so a rule on that domain covers it', () => {
    for (let i = 0; i < MANY; i++) hostKeyOfUrl(IDN_ACTOR);
    expect(hostKeyOfUrl(IDN_ACTOR)).to.equal('example.xn--bcher-kva.');
  });

  it('refuses what the parser refuses, and reads a relative URL against a base', () => {
    expect(canParseUrl('not a url')).to.equal(false);
    expect(canParseUrl('https://')).to.equal(false);
    expect(canParseUrl('/users/bob', 'https://l2.example')).to.equal(true);
  });
});
