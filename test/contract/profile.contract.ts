import { NO_MOVE } from '../../src/domain/account-move.js';
import { expect } from 'chai';
import type { AssetChange } from '../../src/application/ports/activity-log.js';
import type { Job } from '../../src/application/ports/job-queue.js';
import type { ProfileChange } from '../../src/application/ports/user-repository.js';
import type { Asset, AssetName } from '../../src/domain/asset.js';
import { EMPTY_PROFILE, type Profile } from '../../src/domain/profile.js';
import { profileOf, type Username } from '../../src/domain/user.js';
import { activityFor, registerAssets } from '../support/activity-writers.js';
import {
  aFollower,
  anAcceptJob,
  anAsset,
  anAssetName,
  aProfile,
  aUser,
  aUsername,
  DAY,
  later,
  MINUTE,
  T0,
} from '../support/builders.js';
import { drainJobs, useStore, type PersistenceHarness } from './harness.js';

/** What a profile job says, where it goes and when it was queued: all a test can see of it. */
const updates = (jobs: readonly Job[]) =>
  jobs
    .filter((j) => j.kind === 'profile_update')
    .map((j) => ({ payload: j.payload, lane: j.lane, queuedAt: j.queuedAt }));

/**
 * A user's profile (API.md §4.2) in every store: written by UserRepository.updateProfile and by an append whose
 * asset change takes a picture or a pin off it (ActivityLog.append with `change.profile`), both under the
 * compare-and-set of `profileVersion`, both queueing one Update per distinct follower inbox.
 */
export function profileContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: profiles (UserRepository.updateProfile, ActivityLog.append with a profile)`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');
    const users = () => store().users;

    /** Alice's profile and version as every read gives them (they must all agree). */
    async function profileEverywhere(username: Username = alice): Promise<unknown> {
      const user = await users().findByUsername(username);
      const profile = await users().findProfile(username);
      const listed = (await users().listOlder(null, 100)).find((e) => e.value.username === username);
      const newer = (await users().listNewer(0, 100)).find((e) => e.value.username === username);
      expect(profile, 'findProfile').to.deep.equal(user && profileOf(user));
      expect(listed?.value, 'listOlder').to.deep.equal(profile);
      expect(newer?.value, 'listNewer').to.deep.equal(profile);
      return user && { profile: user.profile, profileVersion: user.profileVersion };
    }

    const change = (profile: Profile, expectedVersion: number, username = alice): ProfileChange => ({
      username,
      expectedVersion,
      profile,
      move: NO_MOVE,
    });

    /** Every pending job, claimed and completed: whatever was queued before is out of the way. */
    const drain = (at: Date = later(DAY)): Promise<Job[]> => drainJobs(store(), at);

    beforeEach(async () => {
      await users().create(aUser({ username: alice }));
      await users().create(aUser({ username: bob }));
    });

    describe('reading and writing', () => {
      it('reads a new user with the empty profile at version 0, from every read', async () => {
        expect(await profileEverywhere()).to.deep.equal({ profile: EMPTY_PROFILE, profileVersion: 0 });
      });

      it('creates a user with the profile and version given, every field as stored', async () => {
        const carol = aUser({ username: aUsername('carol'), profile: aProfile(), profileVersion: 7 });

        expect(await users().create(carol)).to.equal('created');

        expect(await users().findByUsername(carol.username)).to.deep.equal(carol);
        expect(await profileEverywhere(carol.username)).to.deep.equal({
          profile: aProfile(),
          profileVersion: 7,
        });
      });

      it('writes a profile at the version read, moving the version on by one; the next write builds on it', async () => {
        const first = aProfile();
        const second = aProfile({
          displayName: null,
          fields: [],
          pinned: [],
          avatar: null,
          indexable: false,
        });

        expect(await users().updateProfile(change(first, 0), T0)).to.equal('updated');
        expect(await profileEverywhere()).to.deep.equal({ profile: first, profileVersion: 1 });

        expect(await users().updateProfile(change(second, 1), later(MINUTE))).to.equal('updated');
        expect(await profileEverywhere()).to.deep.equal({ profile: second, profileVersion: 2 });
        expect(await profileEverywhere(bob), "bob's is untouched").to.deep.equal({
          profile: EMPTY_PROFILE,
          profileVersion: 0,
        });
      });

      it('keeps its own copy of a profile, untouched by changes to the objects it was given or returned', async () => {
        const given = aProfile();
        await users().updateProfile(change(given, 0), T0);
        (given.fields as { name: string; value: string }[]).push({ name: 'late', value: 'edit' });
        (given.pinned as AssetName[]).length = 0;
        const read = await users().findProfile(alice);
        (read?.profile.pinned as AssetName[] | undefined)?.push(anAssetName('mine'));

        expect((await users().findProfile(alice))?.profile).to.deep.equal(aProfile());
      });

      it('refuses a write from a stale read with conflict, writing nothing: no profile, no version, no job', async () => {
        const follower = aFollower();
        await store().followers.add(follower, anAcceptJob(follower), T0);
        await drain();
        expect(await users().updateProfile(change(aProfile(), 0), T0)).to.equal('updated');
        const before = await store().queueAdministration.stats();

        expect(await users().updateProfile(change(EMPTY_PROFILE, 0), later(MINUTE))).to.equal('conflict');
        expect(await users().updateProfile(change(EMPTY_PROFILE, 2), later(MINUTE))).to.equal('conflict');

        expect(await profileEverywhere()).to.deep.equal({ profile: aProfile(), profileVersion: 1 });
        expect(await store().queueAdministration.stats()).to.deep.equal(before);
      });

      it('answers not_found, writing nothing, for a user nobody registered and for a deleted account', async () => {
        const carol = aUsername('carol');
        const plan = { username: bob, revocations: [], assetDeletes: [], actorDelete: { type: 'Delete' } };
        expect(await store().accountRemoval.remove(plan, T0)).to.equal('removed');

        expect(await users().updateProfile(change(aProfile(), 0, carol), T0)).to.equal('not_found');
        expect(await users().updateProfile(change(aProfile(), 0, bob), T0)).to.equal('not_found');

        expect(await users().findByUsername(carol)).to.equal(null);
        expect((await users().findByUsername(bob))?.profile).to.deep.equal(EMPTY_PROFILE);
        expect((await users().findByUsername(bob))?.profileVersion).to.equal(0);
      });

      it('keeps the aliases and the move (API.md §4.3) with the profile, from every read, through later writes', async () => {
        const moved = { movedTo: 'https://new.example/users/alice', movedAt: T0, lastMovedAt: T0, moves: 1 };
        const carol = aUser({ username: aUsername('carol'), profile: aProfile(), move: moved });
        await users().create(carol);
        expect(await users().findByUsername(carol.username)).to.deep.equal(carol);
        await profileEverywhere(carol.username);

        expect(await users().updateProfile({ ...change(aProfile(), 0), move: moved }, T0)).to.equal(
          'updated',
        );
        expect((await users().findProfile(alice))?.move).to.deep.equal(moved);
        await profileEverywhere();
        const next = aProfile({ alsoKnownAs: ['https://third.example/users/al'] });
        expect(await users().updateProfile({ ...change(next, 1), move: moved }, T0)).to.equal('updated');
        expect(await users().findProfile(alice)).to.deep.include({ profile: next, move: moved });

        const cancelled = { ...moved, movedTo: null, movedAt: null };
        expect(await users().updateProfile({ ...change(next, 2), move: cancelled }, T0)).to.equal('updated');
        expect((await users().findByUsername(alice))?.move).to.deep.equal(cancelled);
        expect((await users().findProfile(bob))?.move, "bob's is untouched").to.deep.equal(NO_MOVE);
      });

      it('writes exactly one of 10 concurrent changes made from one read', async () => {
        const changes = Array.from({ length: 10 }, (_, i) => aProfile({ displayName: `writer ${i}` }));

        const outcomes = await Promise.all(changes.map((p) => users().updateProfile(change(p, 0), T0)));

        expect(outcomes.filter((o) => o === 'updated')).to.have.length(1);
        expect(outcomes.filter((o) => o === 'conflict')).to.have.length(9);
        const winner = changes[outcomes.indexOf('updated')];
        expect(await profileEverywhere()).to.deep.equal({ profile: winner, profileVersion: 1 });
      });
    });

    describe("the Updates to the user's followers", () => {
      beforeEach(async () => {
        const followers = [
          aFollower({
            actor: 'https://a.example/users/1',
            inbox: 'https://a.example/users/1/inbox',
            sharedInbox: 'https://a.example/inbox',
          }),
          aFollower({
            actor: 'https://a.example/users/2',
            inbox: 'https://a.example/users/2/inbox',
            sharedInbox: 'https://a.example/inbox',
          }),
          aFollower({
            actor: 'https://b.example/u/3',
            inbox: 'https://b.example/u/3/inbox',
            sharedInbox: null,
          }),
          aFollower({
            username: bob,
            actor: 'https://c.example/u/4',
            inbox: 'https://c.example/u/4/in',
            sharedInbox: null,
          }),
        ];
        for (const f of followers) await store().followers.add(f, anAcceptJob(f), T0);
        await drain();
      });

      const toAlicesInboxes = (queuedAt: Date) => [
        {
          payload: { username: alice, inbox: 'https://a.example/inbox' },
          lane: 'https://a.example',
          queuedAt,
        },
        {
          payload: { username: alice, inbox: 'https://b.example/u/3/inbox' },
          lane: 'https://b.example',
          queuedAt,
        },
      ];

      it('queues one per distinct inbox (a shared inbox once), at the time given', async () => {
        await users().updateProfile(change(aProfile(), 0), later(MINUTE));

        expect(updates(await drain())).to.deep.equal(toAlicesInboxes(later(MINUTE)));
      });

      it('leaves one waiting per inbox after two changes: the second replaces the first, due at its time', async () => {
        await users().updateProfile(change(aProfile(), 0), later(MINUTE));
        const waiting = await store().queueAdministration.stats();

        await users().updateProfile(change(EMPTY_PROFILE, 1), later(2 * MINUTE));

        expect(await store().queueAdministration.stats()).to.deep.equal(waiting);
        expect(waiting.pending).to.equal(2);
        expect(updates(await drain())).to.deep.equal(toAlicesInboxes(later(2 * MINUTE)));
      });

      it('queues again once the Updates waiting have gone out', async () => {
        await users().updateProfile(change(aProfile(), 0), later(MINUTE));
        await drain();

        await users().updateProfile(change(EMPTY_PROFILE, 1), later(2 * MINUTE));

        expect(updates(await drain())).to.deep.equal(toAlicesInboxes(later(2 * MINUTE)));
      });

      it('queues with a move every Update and then one Move per the same inbox, in the one write (API.md §4.3)', async () => {
        const moved = { movedTo: 'https://new.example/users/alice', movedAt: T0, lastMovedAt: T0, moves: 1 };
        const moveDocument = { type: 'Move', id: 'https://l2.example/users/alice#moves/1' };

        const outcome = await users().updateProfile(
          { ...change(aProfile(), 0), move: moved, moveDocument },
          later(MINUTE),
        );

        expect(outcome).to.equal('updated');
        const sent = (await drain()).map((j) => ({ kind: j.kind, lane: j.lane, payload: j.payload }));
        const moveTo = (inbox: string) => ({ signer: alice, inbox, document: moveDocument });
        for (const [lane, inbox] of [
          ['https://a.example', 'https://a.example/inbox'],
          ['https://b.example', 'https://b.example/u/3/inbox'],
        ] as const)
          expect(
            sent.filter((j) => j.lane === lane),
            lane,
          ).to.deep.equal([
            { kind: 'profile_update', lane, payload: { username: alice, inbox } },
            { kind: 'document_delivery', lane, payload: moveTo(inbox) },
          ]);
        expect(sent).to.have.length(4);
      });

      it('queues only the Updates for a write that is no move (a cancel), and nothing when the version moved', async () => {
        const moved = { movedTo: 'https://new.example/users/alice', movedAt: T0, lastMovedAt: T0, moves: 1 };
        const moveDocument = { type: 'Move' };
        expect(
          await users().updateProfile({ ...change(aProfile(), 5), move: moved, moveDocument }, T0),
        ).to.equal('conflict');
        expect(await drain()).to.deep.equal([]);
        expect((await users().findProfile(alice))?.move).to.deep.equal(NO_MOVE);

        await users().updateProfile({ ...change(aProfile(), 0), move: { ...moved, movedTo: null } }, T0);

        expect((await drain()).map((j) => j.kind)).to.deep.equal(['profile_update', 'profile_update']);
      });

      it('queues none for a user nobody follows', async () => {
        const carol = aUser({ username: aUsername('carol') });
        await users().create(carol);

        expect(await users().updateProfile(change(aProfile(), 0, carol.username), T0)).to.equal('updated');

        expect(updates(await drain())).to.deep.equal([]);
      });

      describe('an append carrying the profile its asset change leaves', () => {
        let avatar: Asset;
        let pinned: Asset;
        beforeEach(async () => {
          avatar = anAsset({ owner: alice, name: anAssetName('face') });
          pinned = anAsset({ owner: alice, name: anAssetName('sunset') });
          await registerAssets(store().activities, [avatar, pinned]);
          const profile = aProfile({ avatar: avatar.name, header: null, pinned: [pinned.name] });
          expect(await users().updateProfile(change(profile, 0), T0)).to.equal('updated');
          await drain();
        });

        /** Everything an append could write: compared before and after a refused one. */
        async function snapshot(): Promise<unknown> {
          return {
            nextIdx: await store().activities.nextIdx(),
            activities: await store().activities.count({}),
            assets: await store().assets.listOlder({}, null, 100),
            avatar: await store().assets.findByName(avatar.name),
            profile: await profileEverywhere(),
            jobs: await store().queueAdministration.stats(),
          };
        }

        const appendNext = async (assetChange: AssetChange): Promise<string> => {
          const idx = await store().activities.nextIdx();
          return store().activities.append(
            { ...activityFor(assetChange, idx, alice), published: later(5 * MINUTE) },
            assetChange,
          );
        };

        it('writes the profile with the asset change and the activity: version on by one, its Updates queued', async () => {
          const left = aProfile({ avatar: null, header: null, pinned: [pinned.name] });
          const deletion: AssetChange = {
            kind: 'delete',
            name: avatar.name,
            deletedAt: later(5 * MINUTE),
            profile: change(left, 1),
          };

          expect(await appendNext(deletion)).to.equal('appended');

          expect((await store().assets.findByName(avatar.name))?.deletedAt).to.deep.equal(later(5 * MINUTE));
          expect(await profileEverywhere()).to.deep.equal({ profile: left, profileVersion: 2 });
          const jobs = await drain();
          expect(jobs.filter((j) => j.kind === 'activity_delivery')).to.have.length(2);
          expect(updates(jobs)).to.deep.equal(toAlicesInboxes(later(5 * MINUTE)));
        });

        it('writes it with an update too', async () => {
          const left = aProfile({ avatar: null, header: null, pinned: [pinned.name] });
          const edit: AssetChange = {
            kind: 'update',
            asset: { ...avatar, url: null, updatedAt: later(5 * MINUTE) },
            expectedUpdatedAt: avatar.updatedAt,
            profile: change(left, 1),
          };

          expect(await appendNext(edit)).to.equal('appended');

          expect((await store().assets.findByName(avatar.name))?.url).to.equal(null);
          expect(await profileEverywhere()).to.deep.equal({ profile: left, profileVersion: 2 });
        });

        it('refuses a profile whose version moved: profile_changed, and nothing written — no activity, no asset change, no job', async () => {
          const before = await snapshot();
          const stale: AssetChange = {
            kind: 'delete',
            name: avatar.name,
            deletedAt: later(5 * MINUTE),
            profile: change(EMPTY_PROFILE, 0),
          };
          const ahead: AssetChange = { ...stale, profile: change(EMPTY_PROFILE, 2) };
          const gone: AssetChange = { ...stale, profile: change(EMPTY_PROFILE, 0, aUsername('nobody')) };

          for (const refused of [stale, ahead, gone]) {
            expect(await appendNext(refused)).to.equal('profile_changed');
            expect(await snapshot()).to.deep.equal(before);
          }
          expect(updates(await drain())).to.deep.equal([]);
        });

        it('writes no profile when the rest of the append is refused', async () => {
          const before = await snapshot();
          const left = aProfile({ avatar: null, header: null, pinned: [pinned.name] });
          const refusals: [AssetChange, string][] = [
            [
              {
                kind: 'update',
                asset: { ...avatar, url: null, updatedAt: later(5 * MINUTE) },
                expectedUpdatedAt: later(1),
                profile: change(left, 1),
              },
              'asset_changed',
            ],
            [
              {
                kind: 'delete',
                name: anAssetName('never-registered'),
                deletedAt: later(5 * MINUTE),
                profile: change(left, 1),
              },
              'asset_gone',
            ],
          ];

          for (const [refused, outcome] of refusals) expect(await appendNext(refused)).to.equal(outcome);
          const taken = await store().activities.append(
            activityFor({ kind: 'delete', name: avatar.name, deletedAt: later(5 * MINUTE) }, 0, alice),
            { kind: 'delete', name: avatar.name, deletedAt: later(5 * MINUTE), profile: change(left, 1) },
          );
          expect(taken).to.equal('idx_taken');

          expect(await snapshot()).to.deep.equal(before);
        });

        it('appends as before without a profile: the profile and its version stay', async () => {
          const before = await profileEverywhere();

          expect(await appendNext({ kind: 'create', asset: anAsset({ owner: alice }) })).to.equal('appended');
          expect(
            await appendNext({
              kind: 'update',
              asset: { ...avatar, description: 'new words', updatedAt: later(5 * MINUTE) },
              expectedUpdatedAt: avatar.updatedAt,
            }),
          ).to.equal('appended');

          expect(await profileEverywhere()).to.deep.equal(before);
          expect(updates(await drain())).to.deep.equal([]);
        });
      });
    });
  });
}
