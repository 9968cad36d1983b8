import { expect } from 'chai';
import type { Job } from '../../src/application/ports/job-queue.js';
import { anL1Server, aRevocation, aUsername, DAY, later, MINUTE, T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

export function revocationStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: RevocationStore`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const l1a = anL1Server('https://l1a.example');
    const l1b = anL1Server('https://l1b.example');
    const now = later(MINUTE);

    const claimAll = (at: Date = now): Promise<Job[]> =>
      store().jobs.claim({ now: at, leaseMs: MINUTE, limit: 100, leaseId: `lease-${at.getTime()}` });

    it('knows a revoked token by its hash and no other', async () => {
      const revoked = aRevocation({ username: alice });
      await store().revocations.revoke([revoked], now);

      expect(await store().revocations.isRevoked(revoked.record.tokenHash)).to.equal(true);
      expect(await store().revocations.isRevoked(aRevocation().record.tokenHash)).to.equal(false);
    });

    it('queues one notice job per new revocation that has a notice, at the time of revoking', async () => {
      const scopedA = aRevocation({ username: alice, sessionJti: 's1', l1Server: l1a });
      const scopedB = aRevocation({ username: alice, sessionJti: 's1', l1Server: l1b });
      const session = aRevocation({ username: alice });

      expect(await store().revocations.revoke([session, scopedA, scopedB], now)).to.equal(3);

      expect(await claimAll(later(-1, now))).to.deep.equal([]);
      const jobs = await claimAll();
      expect(jobs.map((j) => j.kind)).to.deep.equal(['revocation_notice', 'revocation_notice']);
      expect(jobs.map((j) => j.payload)).to.have.deep.members([scopedA.notice, scopedB.notice]);
      expect(jobs.every((j) => j.attempts === 0 && j.queuedAt.getTime() === now.getTime())).to.equal(true);
    });

    it('queues nothing for revocations without a notice', async () => {
      expect(await store().revocations.revoke([aRevocation(), aRevocation()], now)).to.equal(2);

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
    });

    it('counts and queues nothing when the same revocations are recorded again', async () => {
      const revocations = [aRevocation({ username: alice }), aRevocation({ username: alice, l1Server: l1a })];
      await store().revocations.revoke(revocations, now);

      expect(await store().revocations.revoke(revocations, later(MINUTE, now))).to.equal(0);

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 0 });
    });

    it('counts and queues only the new revocations of a partly known batch', async () => {
      const known = aRevocation({ username: alice, l1Server: l1a });
      const fresh = aRevocation({ username: alice, l1Server: l1b });
      await store().revocations.revoke([known], now);
      await store().jobs.complete((await claimAll())[0] as Job);

      expect(await store().revocations.revoke([known, fresh], now)).to.equal(1);

      expect((await claimAll()).map((j) => j.payload)).to.deep.equal([fresh.notice]);
    });

    it('counts a revocation listed twice in one batch once', async () => {
      const scoped = aRevocation({ username: alice, l1Server: l1a });

      expect(await store().revocations.revoke([scoped, scoped], now)).to.equal(1);

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 0 });
    });

    it('removes only records that expired before now and says how many', async () => {
      const cleanupAt = later(30 * DAY);
      const expired = [aRevocation({ expiresAt: later(-1, cleanupAt) }), aRevocation({ expiresAt: T0 })];
      const expiringNow = aRevocation({ expiresAt: cleanupAt });
      const unexpired = aRevocation({ expiresAt: later(DAY, cleanupAt) });
      await store().revocations.revoke([...expired, expiringNow, unexpired], now);

      expect(await store().revocations.deleteExpired(cleanupAt)).to.equal(2);

      for (const r of expired)
        expect(await store().revocations.isRevoked(r.record.tokenHash)).to.equal(false);
      expect(await store().revocations.isRevoked(expiringNow.record.tokenHash)).to.equal(true);
      expect(await store().revocations.isRevoked(unexpired.record.tokenHash)).to.equal(true);
      expect(await store().revocations.deleteExpired(cleanupAt)).to.equal(0);
    });
  });
}
