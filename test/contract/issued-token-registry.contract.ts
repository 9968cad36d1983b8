import { expect } from 'chai';
import type { IssuedToken } from '../../src/domain/revocation.js';
import { anIssuedToken, anL1Server, aUsername, DAY, later, MINUTE, T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

const hashes = (tokens: readonly IssuedToken[]): string[] => tokens.map((t) => t.tokenHash).sort();

export function issuedTokenRegistryContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: IssuedTokenRegistry`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');
    const l1a = anL1Server('https://l1a.example');
    const l1b = anL1Server('https://l1b.example');
    const now = later(DAY);

    async function add(...tokens: IssuedToken[]): Promise<void> {
      for (const token of tokens) await store().issuedTokens.add(token);
    }

    it('lists the unexpired tokens a session created, with every field as stored', async () => {
      const session = anIssuedToken({ username: alice, jti: 'session-1' });
      const child = anIssuedToken({
        username: alice,
        sessionJti: 'session-1',
        l1Server: l1a,
        issuedAt: later(5),
      });
      const expiredChild = anIssuedToken({
        username: alice,
        sessionJti: 'session-1',
        l1Server: l1b,
        expiresAt: now,
      });
      const otherSessionChild = anIssuedToken({ username: alice, sessionJti: 'session-2', l1Server: l1a });
      await add(session, child, expiredChild, otherSessionChild);

      expect(await store().issuedTokens.listActiveBySession('session-1', now)).to.deep.equal([child]);
    });

    it("keeps a document client's logout route with its token: its backchannel_logout_uri, or none (API.md §2.5)", async () => {
      const told = anIssuedToken({
        username: alice,
        sessionJti: 'session-1',
        l1Server: anL1Server('https://app.example/client.json'),
        documentClient: { backchannelLogoutUri: 'https://app.example/logout?x=1' },
      });
      const silent = anIssuedToken({
        username: alice,
        sessionJti: 'session-1',
        l1Server: anL1Server('https://app.example/quiet.json'),
        documentClient: { backchannelLogoutUri: null },
      });
      const legacy = anIssuedToken({ username: alice, sessionJti: 'session-1', l1Server: l1a });
      await add(told, silent, legacy);

      const listed = await store().issuedTokens.listActiveBySession('session-1', now);
      expect(hashes(listed)).to.deep.equal(hashes([told, silent, legacy]));
      const byHash = new Map(listed.map((t) => [t.tokenHash, t]));
      expect(byHash.get(told.tokenHash)).to.deep.equal(told);
      expect(byHash.get(silent.tokenHash)).to.deep.equal(silent);
      expect(byHash.get(legacy.tokenHash)).to.deep.equal(legacy);
      expect(byHash.get(legacy.tokenHash)).not.to.have.property('documentClient');
    });

    it('records a token once however often it is added', async () => {
      const child = anIssuedToken({ username: alice, sessionJti: 'session-1', l1Server: l1a });
      await add(child, child, { ...child, jti: 'another-jti' });

      expect(await store().issuedTokens.listActiveBySession('session-1', now)).to.deep.equal([child]);
    });

    it("lists every unexpired token of a user, scoped or not, and no one else's", async () => {
      const session = anIssuedToken({ username: alice });
      const scoped = anIssuedToken({ username: alice, sessionJti: session.jti, l1Server: l1a });
      const expired = anIssuedToken({ username: alice, expiresAt: later(-MINUTE, now) });
      const bobs = anIssuedToken({ username: bob });
      await add(session, scoped, expired, bobs);

      expect(hashes(await store().issuedTokens.listActiveByUser(alice, now))).to.deep.equal(
        hashes([session, scoped]),
      );
    });

    it("lists a user's unexpired tokens scoped to one L1 server from every session", async () => {
      const fromFirst = anIssuedToken({ username: alice, sessionJti: 's1', l1Server: l1a });
      const fromSecond = anIssuedToken({ username: alice, sessionJti: 's2', l1Server: l1a });
      const otherServer = anIssuedToken({ username: alice, sessionJti: 's1', l1Server: l1b });
      const unscoped = anIssuedToken({ username: alice });
      const expired = anIssuedToken({ username: alice, sessionJti: 's1', l1Server: l1a, expiresAt: now });
      const bobs = anIssuedToken({ username: bob, sessionJti: 's3', l1Server: l1a });
      await add(fromFirst, fromSecond, otherServer, unscoped, expired, bobs);

      expect(hashes(await store().issuedTokens.listActiveScoped(alice, l1a, now))).to.deep.equal(
        hashes([fromFirst, fromSecond]),
      );
    });

    it('forgets only tokens that expired before now and says how many', async () => {
      const expired = [
        anIssuedToken({ username: alice, expiresAt: later(-1, now) }),
        anIssuedToken({ username: bob, expiresAt: later(-DAY, now) }),
      ];
      const expiringNow = anIssuedToken({ username: alice, expiresAt: now });
      const unexpired = anIssuedToken({ username: alice, expiresAt: later(1, now) });
      await add(...expired, expiringNow, unexpired);

      expect(await store().issuedTokens.deleteExpired(now)).to.equal(2);

      expect(hashes(await store().issuedTokens.listActiveByUser(alice, T0))).to.deep.equal(
        hashes([expiringNow, unexpired]),
      );
      expect(await store().issuedTokens.listActiveByUser(bob, T0)).to.deep.equal([]);
      expect(await store().issuedTokens.deleteExpired(now)).to.equal(0);
    });
  });
}
