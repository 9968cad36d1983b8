import { NO_MOVE } from '../../src/domain/account-move.js';
import { expect } from 'chai';
import {
  InvalidTransferError,
  StoreNotEmptyError,
  type TransferRecord,
} from '../../src/application/ports/store-transfer.js';
import type { AssetName } from '../../src/domain/asset.js';
import { candidateRuleKeys, hostKeyOfUrl, type RuleHost } from '../../src/domain/domain-rules.js';
import { EMPTY_PROFILE } from '../../src/domain/profile.js';
import type { Username } from '../../src/domain/user.js';
import { aProfile, aUser, T0 } from '../support/builders.js';
import {
  ACCEPT_KEY,
  asVersion3,
  collect,
  DOMAIN_RULE_RECORDS,
  EMPTY_TRANSFER_PROFILE,
  streamOf,
  transferRecords,
  withoutAccountSecurity,
  withoutProfilesAndAltText,
} from '../support/transfer-records.js';
import { useStore, type PersistenceHarness, rejection } from './harness.js';

type AssetRecord = Extract<TransferRecord, { record: 'asset' }>;

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

    it('serves imported profiles, alt text and tags: the tag index is rebuilt, a profile goes on from its version', async () => {
      const records = transferRecords({ users: 14, activities: 120 });
      await store().transfer.import(streamOf(records));

      const user1 = records.find((r) => r.record === 'user' && r.username === 'user_1');
      const profile = await store().users.findProfile('user_1' as Username);
      const { move, ...given } = (user1?.record === 'user' && user1.profile) || {};
      expect(profile?.profile).to.deep.equal(given);
      expect(profile?.move).to.deep.equal({
        movedTo: move?.movedTo,
        movedAt: new Date(move?.movedAt ?? ''),
        lastMovedAt: new Date(move?.lastMovedAt ?? ''),
        moves: 1,
      });
      expect(profile?.profileVersion).to.equal(3);
      const update = {
        username: 'user_1' as Username,
        expectedVersion: 3,
        profile: aProfile(),
        move: NO_MOVE,
      };
      expect(await store().users.updateProfile({ ...update, expectedVersion: 0 }, T0)).to.equal('conflict');
      expect(await store().users.updateProfile(update, T0)).to.equal('updated');
      expect((await store().users.findProfile('user_1' as Username))?.profileVersion).to.equal(4);

      const live = records.filter((r): r is AssetRecord => r.record === 'asset' && r.deletedAt === null);
      const tagged = (key: string) =>
        live
          .filter((r) => r.tags.some((t) => t.toLowerCase() === key))
          .map((r) => r.name)
          .reverse();
      for (const [tag, key] of [
        ['ART', 'art'],
        ['t3', 't3'],
      ] as const) {
        expect(tagged(key), key).to.not.deep.equal([]);
        const listed = await store().assets.listOlder({ tag }, null, 1000);
        expect(
          listed.map((e) => e.value.name),
          tag,
        ).to.deep.equal(tagged(key));
        expect(await store().assets.count({ tag }), tag).to.equal(tagged(key).length);
      }
      const withAlt = live.find((r) => r.altText !== null && r.sensitive);
      expect(await store().assets.findByName(withAlt?.name as AssetName)).to.deep.include({
        altText: withAlt?.altText,
        sensitive: true,
      });
    });

    it('imports a file exported before profiles and alt text: the empty profile at version 0, no alt text, not sensitive', async () => {
      const records = transferRecords({ users: 14, activities: 120 });
      const old = withoutProfilesAndAltText(records);
      expect(old.filter((r) => r.record === 'user' && 'profile' in r)).to.deep.equal([]);

      await store().transfer.import(streamOf(old));

      const exported = await collect(store().transfer.export());
      expect(exported).to.deep.equal(
        withoutAccountSecurity(records).map((r) =>
          r.record === 'user'
            ? { ...r, profile: EMPTY_TRANSFER_PROFILE, profileVersion: 0 }
            : r.record === 'asset'
              ? { ...r, altText: null, sensitive: false }
              : r,
        ),
      );
      const user = await store().users.findByUsername('user_1' as Username);
      expect(user).to.deep.include({ profile: EMPTY_PROFILE, profileVersion: 0 });
      const asset = await store().assets.findByName('asset-1' as AssetName);
      expect(asset).to.deep.include({ altText: null, sensitive: false });
      expect(await store().assets.count({ tag: 'art' })).to.be.greaterThan(0);
    });

    it('serves imported second factors, recovery codes, passkeys and history through the security port', async () => {
      const records = transferRecords({ users: 14, activities: 20 });
      await store().transfer.import(streamOf(records));
      const security = store().accountSecurity;

      const factors = await security.factors('user_1' as Username);
      expect(factors.totp).to.deep.include({ enabledAt: new Date('2026-11-01T00:00:40.000Z') });
      expect(factors.recoveryCodes.filter((c) => c.usedAt === null)).to.have.length(2);
      expect((await security.factors('user_2' as Username)).passkeys).to.have.length(1);
      const passkey = await security.findPasskey('cred-user_5');
      expect(passkey).to.deep.include({ username: 'user_5', backupEligible: true, counter: 3 });
      expect(await security.useTotpStep('user_1' as Username, 59_000_000)).to.equal(false);
      expect(await security.useTotpStep('user_1' as Username, 59_000_007)).to.equal(true);
      expect((await security.history('user_5' as Username, 10)).map((e) => e.kind)).to.deep.equal([
        'passkey_added',
        'second_factor_enabled',
      ]);
    });

    it('serves imported domain rules: listed oldest first, each found by the key of its host, which the import made', async () => {
      await store().transfer.import(streamOf(transferRecords({ users: 3, activities: 5 })));
      const rules = store().domainRules;

      expect(
        (await rules.list()).map((r) => ({ kind: r.kind, host: r.host, at: r.createdAt.toISOString() })),
      ).to.have.deep.members(
        DOMAIN_RULE_RECORDS.map(
          (r) => r.record === 'domain_rule' && { kind: r.kind, host: r.host, at: r.createdAt },
        ),
      );
      const covering = (url: string) => rules.covering(candidateRuleKeys(hostKeyOfUrl(url)!));
      expect(await covering('https://mail.spam.example/users/x')).to.deep.equal({
        block: true,
        allow: false,
      });
      // The IDN as a URL spells it (punycode): Node 20's URL.canParse answers false for non-ASCII text once
      // optimised, so a Unicode URL here would test that bug, not the import (reported to the lead).
      expect(await covering('https://xn--bcher-kva.example/')).to.deep.equal({ block: true, allow: false });
      expect(await covering('http://[2001:db8::1]:8080/')).to.deep.equal({ block: true, allow: false });
      expect(await covering('https://203.0.113.9/')).to.deep.equal({ block: true, allow: false });
      expect(await covering('https://friends.example/')).to.deep.equal({ block: false, allow: true });
      expect(await covering('https://notspam.example/')).to.deep.equal({ block: false, allow: false });
      // A block made after the import finds its rule there, and removes only what it covers.
      expect(await rules.block('spam.example' as RuleHost, T0)).to.deep.include({ added: false });
    });

    it('serves imported follow requests under their own ids, newest first, and decides them as any other', async () => {
      const records = transferRecords({ users: 6, activities: 5 });
      await store().transfer.import(streamOf(records));
      const requests = store().followRequests;
      const user2 = 'user_2' as Username;

      expect((await requests.listOlder({ username: user2 }, null, 10)).map((r) => r.value.id)).to.deep.equal([
        'req-other.example-2',
        'req-peer.example-2',
      ]);
      expect(await requests.count({ username: 'user_5' as Username })).to.equal(2);
      expect(await requests.find(user2, 'req-peer.example-2')).to.deep.equal({
        id: 'req-peer.example-2',
        username: 'user_2',
        actor: 'https://peer.example/users/r2',
        inbox: 'https://peer.example/users/r2/inbox',
        sharedInbox: 'https://peer.example/inbox',
        followId: 'https://peer.example/follows/r2',
        requestedAt: new Date('2026-11-01T00:03:22.000Z'),
      });
      const job = () => ({ kind: 'document_delivery', payload: {}, lane: 'https://peer.example' });
      expect(await requests.accept(user2, 'req-peer.example-2', job, T0)).to.not.equal(null);
      expect(await store().followers.find(user2, 'https://peer.example/users/r2')).to.not.equal(null);
      expect(await requests.count({ username: user2 })).to.equal(1);
      // A request made after the import takes a place after the imported ones.
      await requests.add({
        id: 'req-new',
        username: user2,
        actor: 'https://new.example/users/n',
        inbox: 'https://new.example/users/n/inbox',
        sharedInbox: null,
        followId: null,
        requestedAt: T0,
      });
      expect((await requests.listOlder({ username: user2 }, null, 10)).map((r) => r.value.id)).to.deep.equal([
        'req-new',
        'req-other.example-2',
      ]);
    });

    it('serves imported actor blocks under their own ids, newest first, and unblocks them as any other', async () => {
      await store().transfer.import(streamOf(transferRecords({ users: 6, activities: 5 })));
      const blocks = store().actorBlocks;
      const user0 = 'user_0' as Username;

      expect((await blocks.listOlder({ username: user0 }, null, 10)).map((b) => b.value.id)).to.deep.equal([
        'block-0-1',
        'block-0-0',
      ]);
      expect(await blocks.find('user_4' as Username, 'https://rude.example/users/b4')).to.deep.equal({
        id: 'block-4-4',
        username: 'user_4',
        actor: 'https://rude.example/users/b4',
        inbox: 'https://rude.example/users/b4/inbox',
        createdAt: new Date('2026-11-01T00:05:08.000Z'),
      });
      const undo = { kind: 'document_delivery', payload: {}, lane: 'https://rude.example' };
      expect(await blocks.unblock(user0, 'block-0-1', undo, T0)).to.equal(true);
      expect(await blocks.count({ username: user0 })).to.equal(1);
      // Blocking an actor already blocked finds the imported block: nothing is written twice.
      const again = { id: 'block-again', username: user0, actor: 'https://rude.example/users/b0' };
      const outcome = await blocks.block(
        { ...again, inbox: 'https://rude.example/users/b0/inbox', createdAt: T0 },
        { reject: null, block: undo },
        T0,
      );
      expect(outcome).to.deep.include({ outcome: 'exists' });
      expect(outcome.block.id).to.equal('block-0-0');
    });

    it('imports a file of version 3 with no follow request, no actor block and no domain rule', async () => {
      const records = transferRecords({ users: 3, activities: 5 });

      await store().transfer.import(streamOf(asVersion3(records)));

      expect(await store().domainRules.list()).to.deep.equal([]);
      expect(await store().followRequests.count({ username: 'user_2' as Username })).to.equal(0);
      expect(await store().actorBlocks.count({ username: 'user_0' as Username })).to.equal(0);
      expect(await collect(store().transfer.export())).to.deep.equal(asVersion3(records));
    });

    it('refuses a domain rule whose host is not spelled as a rule host is, writing nothing', async () => {
      for (const host of ['Spam.Example', 'https://spam.example', 'spam.example:443', '']) {
        const records = transferRecords({ users: 3, activities: 5 }).map((r) =>
          r.record === 'domain_rule' && r.host === 'spam.example' ? { ...r, host } : r,
        );
        const refused = await rejection(store().transfer.import(streamOf(records)));
        expect(refused, host).to.be.instanceOf(InvalidTransferError);
        expect((refused as Error).message, host).to.include(
          `not a domain rule's host: ${JSON.stringify(host)}`,
        );
        expect(await store().users.count(), host).to.equal(0);
        expect(await store().domainRules.list(), host).to.deep.equal([]);
      }
    });

    it('refuses a store that holds a domain rule, writing nothing', async () => {
      await store().domainRules.allow('friends.example' as RuleHost, T0);
      const refused = await rejection(
        store().transfer.import(streamOf(transferRecords({ users: 3, activities: 5 }))),
      );
      expect(refused).to.be.instanceOf(StoreNotEmptyError);
      expect(await store().users.count()).to.equal(0);
      expect(await store().domainRules.list()).to.have.length(1);
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
