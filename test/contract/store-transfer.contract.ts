import { expect } from 'chai';
import {
  InvalidTransferError,
  StoreNotEmptyError,
  type TransferRecord,
} from '../../src/application/ports/store-transfer.js';
import type { AssetName } from '../../src/domain/asset.js';
import type { Username } from '../../src/domain/user.js';
import { aUser } from '../support/builders.js';
import { ACCEPT_KEY, collect, streamOf, transferRecords } from '../support/transfer-records.js';
import { useStore, type PersistenceHarness, rejection } from './harness.js';

export function storeTransferContract(name: string, harness: PersistenceHarness): void {
  describe(`StoreTransfer (${name})`, () => {
    const store = useStore(harness);

    it('imports every kind of record into an empty store and exports exactly the same records, in the same order', async () => {
      const records = transferRecords({ users: 14, activities: 120 });
      const counts = await store().transfer.import(streamOf(records));
      expect(counts.activity).to.equal(120);
      expect(counts.user).to.equal(14);
      expect(await collect(store().transfer.export())).to.deep.equal(records);
    });

    it('serves what it imported through every port, with the counts rebuilt', async () => {
      const records = transferRecords({ users: 14, activities: 120 });
      await store().transfer.import(streamOf(records));
      const live = records.filter((r) => r.record === 'user' && r.deletedAt === null).length;
      expect(await store().users.count()).to.equal(live);
      expect((await store().users.findByUsername('user_1' as Username))?.privateKeyPem).to.include(
        'PRIVATE KEY',
      );
      expect(await store().activities.nextIdx()).to.equal(120);
      expect((await store().activities.get(119))?.document).to.deep.include({ n: 119 });
      const liveAssets = records.filter((r) => r.record === 'asset' && r.deletedAt === null);
      expect(await store().assets.count({})).to.equal(liveAssets.length);
      const ownedBy0 = liveAssets.filter((r) => r.record === 'asset' && r.owner === 'user_0').length;
      expect(await store().assets.count({ owner: 'user_0' as Username })).to.equal(ownedBy0);
      const actedBy3 = records.filter((r) => r.record === 'activity' && r.actor === 'user_3').length;
      expect(await store().activities.count({ actor: 'user_3' as Username })).to.equal(actedBy3);
      expect(await store().assets.findByName('asset-0' as AssetName)).to.not.equal(null);
      expect(
        await store().revocations.isRevoked(
          (records.find((r) => r.record === 'revocation') as { tokenHash: string }).tokenHash,
        ),
      ).to.equal(true);
      expect(await store().followers.count({ username: 'user_1' as Username })).to.equal(1);
      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 46, abandoned: 6 });
      expect(await store().instanceKeys.get()).to.deep.equal({
        publicKeyPem: 'instance public',
        privateKeyPem: 'instance private',
      });
    });

    it('keeps the key of an imported Accept: a repeated Follow replaces it rather than adding one', async () => {
      await store().transfer.import(streamOf(transferRecords({ users: 3, activities: 5 })));
      const before = await store().queueAdministration.stats();

      await store().jobs.enqueue(
        [
          {
            kind: 'document_delivery',
            payload: { again: true },
            lane: 'https://peer.example',
            replaceKey: ACCEPT_KEY,
          },
        ],
        new Date(),
      );

      expect(await store().queueAdministration.stats()).to.deep.equal(before);
    });

    it('imports jobs of a file exported before jobs had keys, as jobs without one', async () => {
      const old = transferRecords({ users: 3, activities: 5 }).map((r) => {
        if (r.record !== 'job') return r;
        const { replaceKey: _, ...rest } = r;
        return rest;
      });

      await store().transfer.import(streamOf(old));

      const exported = await collect(store().transfer.export());
      expect(exported.filter((r) => r.record === 'job' && 'replaceKey' in r)).to.deep.equal([]);
      const jobsIn = (state: string) => old.filter((r) => r.record === 'job' && r.state === state).length;
      expect(await store().queueAdministration.stats()).to.deep.equal({
        pending: jobsIn('pending'),
        abandoned: jobsIn('abandoned'),
      });
    });

    it('refuses a store that holds data, writing nothing', async () => {
      await store().users.create(aUser({ username: 'someone' as Username }));
      const refused = await rejection(
        store().transfer.import(streamOf(transferRecords({ users: 3, activities: 5 }))),
      );
      expect(refused).to.be.instanceOf(StoreNotEmptyError);
      expect(await store().users.count()).to.equal(1);
      expect(await store().activities.nextIdx()).to.equal(0);
    });

    it('refuses a log with a gap', async () => {
      const records = transferRecords({ users: 3, activities: 5 });
      const gap = records.filter((r) => !(r.record === 'activity' && r.idx === 2));
      const gapRefused = await rejection(store().transfer.import(streamOf(gap)));
      expect(gapRefused).to.be.instanceOf(InvalidTransferError).with.property('message').that.matches(/gap/);
    });

    it('refuses records out of order', async () => {
      const records = transferRecords({ users: 3, activities: 5 });
      const late: TransferRecord[] = [...records.filter((r) => r.record !== 'user'), records[0]!];
      const lateRefused = await rejection(store().transfer.import(streamOf(late)));
      expect(lateRefused)
        .to.be.instanceOf(InvalidTransferError)
        .with.property('message')
        .that.matches(/order/);
    });
  });
}
