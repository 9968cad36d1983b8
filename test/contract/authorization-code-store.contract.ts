import { expect } from 'chai';
import { grantedCode, type AuthorizationCode } from '../../src/domain/oauth.js';
import { scopedClaims, sessionClaims } from '../../src/domain/token.js';
import {
  anIssuedToken,
  anL1Server,
  aTokenHash,
  aUsername,
  later,
  L2_SERVER,
  MINUTE,
  T0,
} from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

const l1 = anL1Server('https://l1.example');
const session = sessionClaims({
  username: aUsername('alice'),
  l2Server: L2_SERVER,
  now: T0,
  jti: 'session-1',
  amr: ['pwd'],
});

/** A code granted at T0 by alice's session, unused. */
function aCode(): AuthorizationCode {
  return grantedCode({
    codeHash: aTokenHash(),
    session,
    sessionTokenHash: aTokenHash(),
    request: {
      clientId: l1,
      redirectUri: 'https://l1.example/auth/callback',
      state: 'state-1',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    },
    now: T0,
  });
}

/** The token an exchange of the code issues. */
const anIssued = () => anIssuedToken({ l1Server: l1, sessionJti: session.jti, issuedAt: later(MINUTE / 2) });

export function authorizationCodeStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: AuthorizationCodeStore`, () => {
    const store = useStore(harness);

    it('finds a saved code by its hash, exactly as saved, and nothing by another hash', async () => {
      const code = aCode();
      await store().authorizationCodes.save(code);
      expect(await store().authorizationCodes.find(code.codeHash)).to.deep.equal(code);
      expect(await store().authorizationCodes.find(aTokenHash())).to.equal(null);
    });

    it('keeps the session claims of a scoped grant intact (names, numbers, the normalised L1 server)', async () => {
      const scoped = scopedClaims({ session, l1Server: l1, now: T0, jti: 'scoped-1' });
      const code = { ...aCode(), session: scoped };
      await store().authorizationCodes.save(code);
      expect((await store().authorizationCodes.find(code.codeHash))?.session).to.deep.equal(scoped);
    });

    it('keeps what an OpenID Connect request was granted (scope, nonce) and its session, through a redemption', async () => {
      const code = { ...aCode(), openid: { scope: 'openid profile l1', nonce: 'n-0S6_WzA2Mj' } };
      expect(code.session).to.include({ iat: session.iat, jti: 'session-1' }); // auth_time and sid of the ID token
      await store().authorizationCodes.save(code);
      expect(await store().authorizationCodes.find(code.codeHash)).to.deep.equal(code);
      const issued = anIssued();
      const redeemed = await store().authorizationCodes.redeem(code.codeHash, issued, later(10_000));
      expect(redeemed).to.deep.equal({ kind: 'redeemed', code: { ...code, usedAt: later(10_000), issued } });
      const again = await store().authorizationCodes.redeem(code.codeHash, issued, later(20_000));
      expect(again?.code.openid).to.deep.equal({ scope: 'openid profile l1', nonce: 'n-0S6_WzA2Mj' });
    });

    it('reads a code of a §2.3 request as granting no OpenID Connect (openid null, nonce-less)', async () => {
      const code = aCode();
      expect(code.openid).to.equal(null);
      await store().authorizationCodes.save(code);
      expect((await store().authorizationCodes.find(code.codeHash))?.openid).to.equal(null);
    });

    it('refuses to save a hash seen before', async () => {
      const code = aCode();
      await store().authorizationCodes.save(code);
      let failed = false;
      await store()
        .authorizationCodes.save(code)
        .catch(() => (failed = true));
      expect(failed).to.equal(true);
    });

    it('redeems a code once: the first exchange wins and records its token, the next gets that token', async () => {
      const code = aCode();
      await store().authorizationCodes.save(code);
      const issued = anIssued();
      const first = await store().authorizationCodes.redeem(code.codeHash, issued, later(10_000));
      expect(first).to.deep.equal({
        kind: 'redeemed',
        code: { ...code, usedAt: later(10_000), issued },
      });
      const second = await store().authorizationCodes.redeem(code.codeHash, anIssued(), later(20_000));
      expect(second).to.deep.equal({ kind: 'used', code: { ...code, usedAt: later(10_000), issued } });
      expect(await store().authorizationCodes.find(code.codeHash)).to.deep.equal({
        ...code,
        usedAt: later(10_000),
        issued,
      });
    });

    it('lets exactly one of many concurrent exchanges redeem a code; all others learn its token', async () => {
      const code = aCode();
      await store().authorizationCodes.save(code);
      const tokens = Array.from({ length: 10 }, anIssued);
      const outcomes = await Promise.all(
        tokens.map((token) => store().authorizationCodes.redeem(code.codeHash, token, later(1000))),
      );
      const winners = outcomes.filter((o) => o?.kind === 'redeemed');
      expect(winners).to.have.length(1);
      const winning = winners[0]!.code.issued;
      expect(tokens).to.deep.include(winning);
      for (const outcome of outcomes.filter((o) => o?.kind === 'used'))
        expect(outcome!.code.issued).to.deep.equal(winning);
    });

    it('redeems nothing for an unknown hash', async () => {
      expect(await store().authorizationCodes.redeem(aTokenHash(), anIssued(), T0)).to.equal(null);
    });

    it('removes the codes that expired before the given time, used or not, and keeps the others', async () => {
      const old = aCode();
      const oldUsed = aCode();
      const fresh = { ...aCode(), expiresAt: later(10 * MINUTE) };
      for (const code of [old, oldUsed, fresh]) await store().authorizationCodes.save(code);
      await store().authorizationCodes.redeem(oldUsed.codeHash, anIssued(), later(1000));
      expect(await store().authorizationCodes.deleteExpired(later(5 * MINUTE))).to.equal(2);
      expect(await store().authorizationCodes.find(old.codeHash)).to.equal(null);
      expect(await store().authorizationCodes.find(oldUsed.codeHash)).to.equal(null);
      expect(await store().authorizationCodes.find(fresh.codeHash)).to.deep.equal(fresh);
      expect(await store().authorizationCodes.deleteExpired(later(5 * MINUTE))).to.equal(0);
    });
  });
}
