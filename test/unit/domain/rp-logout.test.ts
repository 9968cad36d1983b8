// RP-initiated logout's rules (API.md §2.5): what an ID-token hint must say, and where a browser may be sent back.
import { expect } from 'chai';
import type { ClientDocument } from '../../../src/domain/client-document.js';
import type { L1ServerUrl } from '../../../src/domain/l1-server.js';
import { postLogoutRedirectAllowed, readIdTokenHint } from '../../../src/domain/rp-logout.js';

const ISSUER = 'https://l2.example';
const L1 = 'https://l1.example/studio' as L1ServerUrl;
const HINT = { iss: ISSUER, sub: 'alice', aud: L1, azp: L1, sid: 'session-1', exp: 1, iat: 0 };

describe('RP-initiated logout rules', () => {
  describe('readIdTokenHint', () => {
    it('names the client, the person and the session, whatever the exp', () => {
      expect(readIdTokenHint(HINT, ISSUER)).to.deep.equal({
        ok: true,
        value: { clientId: L1, username: 'alice', sid: 'session-1' },
      });
    });

    it('takes an audience of exactly one as that client', () => {
      const read = readIdTokenHint({ ...HINT, aud: [L1] }, ISSUER);
      expect(read.ok && read.value.clientId).to.equal(L1);
    });

    it('refuses another issuer, several audiences, and a hint without sub or sid', () => {
      for (const claims of [
        { ...HINT, iss: 'https://other.example' },
        { ...HINT, aud: [L1, 'https://other.example'] },
        { ...HINT, sub: undefined },
        { ...HINT, sid: '' },
      ])
        expect(readIdTokenHint(claims, ISSUER).ok, JSON.stringify(claims)).to.equal(false);
    });
  });

  describe('postLogoutRedirectAllowed', () => {
    it('for an L1 server URL client: a URL on it, under its path, as a redirect_uri', () => {
      expect(postLogoutRedirectAllowed('https://l1.example/studio/bye', L1, null)).to.equal(true);
      expect(postLogoutRedirectAllowed('https://l1.example/studio2/bye', L1, null)).to.equal(false);
      expect(postLogoutRedirectAllowed('https://evil.example/studio/bye', L1, null)).to.equal(false);
    });

    it('for a document client: one of its post_logout_redirect_uris, exactly', () => {
      const document = {
        postLogoutRedirectUris: ['https://l1.example/studio/bye'],
      } as unknown as ClientDocument;
      expect(postLogoutRedirectAllowed('https://l1.example/studio/bye', L1, document)).to.equal(true);
      expect(postLogoutRedirectAllowed('https://l1.example/studio/bye/', L1, document)).to.equal(false);
      expect(postLogoutRedirectAllowed('https://l1.example/studio/other', L1, document)).to.equal(false);
    });
  });
});
