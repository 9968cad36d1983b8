import { expect } from 'chai';
import { anL1Server, aUsername, later, MINUTE } from '../support/builders.js';
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
      await store().attachments.attach(bob, l1a, later(0));

      expect(await store().attachments.list(alice)).to.deep.equal([]);
    });

    it("lists a user's attachments, most recent first", async () => {
      await store().attachments.attach(alice, l1b, later(2 * MINUTE));
      await store().attachments.attach(alice, l1a, later(1 * MINUTE));
      await store().attachments.attach(alice, l1c, later(3 * MINUTE));

      expect(await store().attachments.list(alice)).to.deep.equal([
        { l1Server: l1c, attachedAt: later(3 * MINUTE) },
        { l1Server: l1b, attachedAt: later(2 * MINUTE) },
        { l1Server: l1a, attachedAt: later(1 * MINUTE) },
      ]);
    });

    it('keeps one attachment per L1 server, refreshing its time when attached again', async () => {
      await store().attachments.attach(alice, l1a, later(1 * MINUTE));
      await store().attachments.attach(alice, l1b, later(2 * MINUTE));

      await store().attachments.attach(alice, l1a, later(3 * MINUTE));

      expect(await store().attachments.list(alice)).to.deep.equal([
        { l1Server: l1a, attachedAt: later(3 * MINUTE) },
        { l1Server: l1b, attachedAt: later(2 * MINUTE) },
      ]);
    });

    it("removes one user's attachment and leaves other users' alone", async () => {
      await store().attachments.attach(alice, l1a, later(1 * MINUTE));
      await store().attachments.attach(alice, l1b, later(2 * MINUTE));
      await store().attachments.attach(bob, l1a, later(1 * MINUTE));

      expect(await store().attachments.remove(alice, l1a)).to.equal(true);

      expect(await store().attachments.list(alice)).to.deep.equal([
        { l1Server: l1b, attachedAt: later(2 * MINUTE) },
      ]);
      expect(await store().attachments.list(bob)).to.deep.equal([
        { l1Server: l1a, attachedAt: later(1 * MINUTE) },
      ]);
    });

    it('answers false when removing an attachment that does not exist', async () => {
      await store().attachments.attach(bob, l1a, later(1 * MINUTE));

      expect(await store().attachments.remove(alice, l1a)).to.equal(false);
      await store().attachments.attach(alice, l1a, later(1 * MINUTE));
      await store().attachments.remove(alice, l1a);
      expect(await store().attachments.remove(alice, l1a)).to.equal(false);
    });
  });
}
