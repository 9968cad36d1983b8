import { expect } from 'chai';
import { anL1Server, aRevocation, aUsername, later, MINUTE } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

export function rendererAttachmentsContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: RendererAttachments`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');
    const l1a = anL1Server('https://l1a.example');
    const l1b = anL1Server('https://l1b.example');
    const l1c = anL1Server('https://l1c.example');

    it('lists nothing for a user who attached nothing', async () => {
      await store().attachments.attach(bob, l1a, later(0), 20);

      expect(await store().attachments.list(alice)).to.deep.equal([]);
    });

    it("lists a user's attachments, most recent first", async () => {
      await store().attachments.attach(alice, l1b, later(2 * MINUTE), 20);
      await store().attachments.attach(alice, l1a, later(1 * MINUTE), 20);
      await store().attachments.attach(alice, l1c, later(3 * MINUTE), 20);

      expect(await store().attachments.list(alice)).to.deep.equal([
        { l1Server: l1c, attachedAt: later(3 * MINUTE) },
        { l1Server: l1b, attachedAt: later(2 * MINUTE) },
        { l1Server: l1a, attachedAt: later(1 * MINUTE) },
      ]);
    });

    it('keeps one attachment per L1 server, refreshing its time when attached again', async () => {
      await store().attachments.attach(alice, l1a, later(1 * MINUTE), 20);
      await store().attachments.attach(alice, l1b, later(2 * MINUTE), 20);

      await store().attachments.attach(alice, l1a, later(3 * MINUTE), 20);

      expect(await store().attachments.list(alice)).to.deep.equal([
        { l1Server: l1a, attachedAt: later(3 * MINUTE) },
        { l1Server: l1b, attachedAt: later(2 * MINUTE) },
      ]);
    });

    it('refuses a new L1 server once the user has `limit` attached, writing nothing; others and re-attaches pass', async () => {
      expect(await store().attachments.attach(alice, l1a, later(1 * MINUTE), 2)).to.equal(true);
      expect(await store().attachments.attach(alice, l1b, later(2 * MINUTE), 2)).to.equal(true);

      expect(await store().attachments.attach(alice, l1c, later(3 * MINUTE), 2)).to.equal(false);
      expect(await store().attachments.attach(alice, l1a, later(4 * MINUTE), 2)).to.equal(true);
      expect(await store().attachments.attach(bob, l1c, later(5 * MINUTE), 2)).to.equal(true);

      expect(await store().attachments.list(alice)).to.deep.equal([
        { l1Server: l1a, attachedAt: later(4 * MINUTE) },
        { l1Server: l1b, attachedAt: later(2 * MINUTE) },
      ]);
      await store().attachments.detach(alice, l1b, [], later(5 * MINUTE));
      expect(await store().attachments.attach(alice, l1c, later(6 * MINUTE), 2)).to.equal(true);
    });

    it('lets exactly `limit` of many concurrent attaches of different L1 servers through', async () => {
      const servers = Array.from({ length: 12 }, (_, i) => anL1Server(`https://l1-${i}.example`));
      const results = await Promise.all(
        servers.map((server, i) => store().attachments.attach(alice, server, later(i * MINUTE), 5)),
      );
      expect(results.filter(Boolean)).to.have.length(5);
      expect(await store().attachments.list(alice)).to.have.length(5);
    });

    it("removes one user's attachment and leaves other users' alone", async () => {
      await store().attachments.attach(alice, l1a, later(1 * MINUTE), 20);
      await store().attachments.attach(alice, l1b, later(2 * MINUTE), 20);
      await store().attachments.attach(bob, l1a, later(1 * MINUTE), 20);

      expect(await store().attachments.detach(alice, l1a, [], later(3 * MINUTE))).to.deep.equal({
        removed: true,
        revoked: 0,
      });

      expect(await store().attachments.list(alice)).to.deep.equal([
        { l1Server: l1b, attachedAt: later(2 * MINUTE) },
      ]);
      expect(await store().attachments.list(bob)).to.deep.equal([
        { l1Server: l1a, attachedAt: later(1 * MINUTE) },
      ]);
    });

    it('answers removed: false when detaching an attachment that does not exist', async () => {
      await store().attachments.attach(bob, l1a, later(1 * MINUTE), 20);
      const none = { removed: false, revoked: 0 };

      expect(await store().attachments.detach(alice, l1a, [], later(2 * MINUTE))).to.deep.equal(none);
      await store().attachments.attach(alice, l1a, later(1 * MINUTE), 20);
      await store().attachments.detach(alice, l1a, [], later(2 * MINUTE));
      expect(await store().attachments.detach(alice, l1a, [], later(3 * MINUTE))).to.deep.equal(none);
    });

    it('records the revocations with their notices in the same write as the removal, counting new ones only', async () => {
      await store().attachments.attach(alice, l1a, later(0), 20);
      const first = aRevocation({ username: alice, sessionJti: 's1', l1Server: l1a });
      const second = aRevocation({ username: alice, sessionJti: 's2', l1Server: l1b }); // another lane: one claim
      await store().revocations.revoke([second], later(1 * MINUTE));

      const detached = await store().attachments.detach(alice, l1a, [first, second], later(2 * MINUTE));

      expect(detached).to.deep.equal({ removed: true, revoked: 1 });
      expect(await store().attachments.list(alice)).to.deep.equal([]);
      expect(await store().revocations.isRevoked(first.record.tokenHash)).to.equal(true);
      const jobs = await store().jobs.claim({
        now: later(3 * MINUTE),
        leaseMs: MINUTE,
        limit: 10,
        leaseId: 'l',
      });
      expect(jobs.map((job) => job.payload)).to.have.deep.members([second.notice, first.notice]);
    });
  });
}
