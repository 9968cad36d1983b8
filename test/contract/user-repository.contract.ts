import { expect } from 'chai';
import type { Positioned } from '../../src/application/ports/positioned.js';
import type { Revocation } from '../../src/domain/revocation.js';
import { profileOf, type User, type UserProfile, type Username } from '../../src/domain/user.js';
import {
  anIssuedToken,
  anL1Server,
  aRevocation,
  aUser,
  aUsername,
  DAY,
  later,
  MINUTE,
  T0,
} from '../support/builders.js';
import {
  drainJobs,
  strictlyDecreasing,
  strictlyIncreasing,
  useStore,
  walkNewer,
  walkOlder,
  type PersistenceHarness,
} from './harness.js';

const names = (entries: readonly Positioned<UserProfile>[]): string[] => entries.map((e) => e.value.username);

export function userRepositoryContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: UserRepository`, () => {
    const store = useStore(harness);

    /** Deletes an account that has no asset, as deleting it through AccountRemoval does. */
    async function removeAccount(username: Username, now: Date): Promise<void> {
      const plan = { username, revocations: [], assetDeletes: [], actorDelete: { type: 'Delete' } };
      expect(await store().accountRemoval.remove(plan, now)).to.equal('removed');
    }

    it('finds a created user with every field as stored', async () => {
      const alice = aUser({ username: aUsername('alice'), createdAt: later(1234) });

      expect(await store().users.create(alice)).to.equal('created');

      expect(await store().users.findByUsername(alice.username)).to.deep.equal(alice);
    });

    it('finds no user under a name nobody registered', async () => {
      await store().users.create(aUser({ username: aUsername('alice') }));

      expect(await store().users.findByUsername(aUsername('bob'))).to.equal(null);
    });

    it('answers taken for a name in use and keeps the first account', async () => {
      const first = aUser({ username: aUsername('alice') });
      await store().users.create(first);

      expect(await store().users.create(aUser({ username: aUsername('alice') }))).to.equal('taken');

      expect(await store().users.findByUsername(aUsername('alice'))).to.deep.equal(first);
    });

    it('gives one of 20 concurrent registrations of a name the account', async () => {
      const attempts = Array.from({ length: 20 }, (_, i) =>
        aUser({ username: aUsername('alice'), passwordHash: `hash-of-attempt-${i}`, createdAt: later(i) }),
      );

      const outcomes = await Promise.all(attempts.map((user) => store().users.create(user)));

      expect(outcomes.filter((o) => o === 'created')).to.have.length(1);
      expect(outcomes.filter((o) => o === 'taken')).to.have.length(19);
      const winner = attempts[outcomes.indexOf('created')];
      expect(await store().users.findByUsername(aUsername('alice'))).to.deep.equal(winner);
      expect(await store().users.count()).to.equal(1);
    });

    it('counts registered users, not refused registrations', async () => {
      expect(await store().users.count()).to.equal(0);

      await store().users.create(aUser({ username: aUsername('alice') }));
      await store().users.create(aUser({ username: aUsername('bob') }));
      await store().users.create(aUser({ username: aUsername('alice') }));

      expect(await store().users.count()).to.equal(2);
    });

    it('keeps its own copy of a user, untouched by changes to the objects it was given or returned', async () => {
      const alice = aUser({ username: aUsername('alice'), createdAt: new Date(T0) });
      await store().users.create(alice);
      alice.createdAt.setTime(0);
      const found = await store().users.findByUsername(aUsername('alice'));
      found?.createdAt.setTime(1);

      expect((await store().users.findByUsername(aUsername('alice')))?.createdAt).to.deep.equal(T0);
    });

    describe('listing', () => {
      const users = () => store().users;

      /** Registers users named by `names`, in that order. */
      async function register(...usernames: string[]): Promise<User[]> {
        const created: User[] = [];
        for (const username of usernames) {
          const user = aUser({ username: aUsername(username) });
          expect(await users().create(user)).to.equal('created');
          created.push(user);
        }
        return created;
      }

      /** The position of each registered user, by username. */
      async function positions(): Promise<Map<string, number>> {
        const all = await users().listOlder(null, 1000);
        return new Map(all.map((e) => [e.value.username, e.position]));
      }

      it('lists nobody in an empty store', async () => {
        expect(await users().listOlder(null, 10)).to.deep.equal([]);
        expect(await users().listNewer(0, 10)).to.deep.equal([]);
      });

      it('lists users newest registered first, by registration order rather than name or creation time', async () => {
        const zed = aUser({ username: aUsername('zed'), createdAt: later(5000) });
        const amy = aUser({ username: aUsername('amy'), createdAt: later(1000) });
        const mia = aUser({ username: aUsername('mia'), createdAt: later(9000) });
        for (const user of [zed, amy, mia]) await users().create(user);
        await users().create(aUser({ username: aUsername('amy') }));

        const listed = await users().listOlder(null, 10);

        expect(listed.map((e) => e.value)).to.deep.equal([mia, amy, zed].map(profileOf));
        expect(strictlyDecreasing(listed)).to.equal(true);
      });

      it('lists users registered after a position oldest first', async () => {
        await register('zed', 'amy', 'mia', 'bob');
        const at = await positions();

        const newer = await users().listNewer(at.get('zed') as number, 10);

        expect(names(newer)).to.deep.equal(['amy', 'mia', 'bob']);
        expect(strictlyIncreasing(newer)).to.equal(true);
        expect(newer.map((e) => e.position)).to.deep.equal(['amy', 'mia', 'bob'].map((n) => at.get(n)));
      });

      it('seeks from a position, at most `limit` users, and none for a limit of 0', async () => {
        await register('u_one', 'u_two', 'u_three', 'u_four', 'u_five');
        const positionsByName = await positions();
        const at = (name: string): number => positionsByName.get(name) as number;

        expect(names(await users().listOlder(null, 2))).to.deep.equal(['u_five', 'u_four']);
        expect(names(await users().listOlder(at('u_four'), 2))).to.deep.equal(['u_three', 'u_two']);
        expect(names(await users().listOlder(at('u_two'), 2))).to.deep.equal(['u_one']);
        expect(await users().listOlder(at('u_one'), 2)).to.deep.equal([]);
        expect(names(await users().listNewer(at('u_one'), 2))).to.deep.equal(['u_two', 'u_three']);
        expect(names(await users().listNewer(at('u_three'), 10))).to.deep.equal(['u_four', 'u_five']);
        expect(await users().listNewer(at('u_five'), 10)).to.deep.equal([]);
        expect(await users().listOlder(null, 0)).to.deep.equal([]);
        expect(await users().listNewer(at('u_one'), 0)).to.deep.equal([]);
      });

      it("returns every field of a listed user's profile as stored, and no credential", async () => {
        const [alice] = await register('alice');

        const [listed] = await users().listOlder(null, 1);

        expect(listed?.value).to.deep.equal(profileOf(alice!));
        expect(listed?.value).to.not.have.any.keys('passwordHash', 'privateKeyPem');
      });

      it('gives 23 users, registered concurrently, distinct positions, and pages see each exactly once', async () => {
        const all = Array.from({ length: 23 }, (_, i) => aUser({ username: aUsername(`walker_${i}`) }));
        await Promise.all(all.map((user) => users().create(user)));

        const older = await walkOlder((before, limit) => users().listOlder(before, limit), 5);
        const oldest = older[older.length - 1] as Positioned<UserProfile>;
        const newer = await walkNewer(
          (after, limit) => users().listNewer(after, limit),
          oldest.position - 1,
          4,
        );

        expect(older).to.have.length(23);
        expect(new Set(names(older))).to.deep.equal(new Set(all.map((u) => u.username)));
        expect(strictlyDecreasing(older)).to.equal(true);
        expect(newer).to.deep.equal([...older].reverse());
        expect(await users().count()).to.equal(23);
      });

      it('hands out copies: changing a listed user changes nothing stored', async () => {
        const [alice] = await register('alice');
        const [listed] = (await users().listOlder(null, 1)) as [Positioned<UserProfile>];
        listed.value.createdAt.setTime(0);

        expect((await users().listNewer(listed.position - 1, 1))[0]?.value).to.deep.equal(profileOf(alice!));
      });
    });

    describe('the first session', () => {
      it('stores the record of the first session token in the same write as the user', async () => {
        const alice = aUser({ username: aUsername('alice') });
        const session = anIssuedToken({ username: alice.username });

        expect(await store().users.create(alice, session)).to.equal('created');

        expect(await store().users.findByUsername(alice.username)).to.deep.equal(alice);
        expect(await store().issuedTokens.listActiveByUser(alice.username, T0)).to.deep.equal([session]);
      });

      it('stores no session token when the name is taken', async () => {
        const first = aUser({ username: aUsername('alice') });
        await store().users.create(first);
        const impostor = aUser({ username: aUsername('alice') });
        const session = anIssuedToken({ username: impostor.username });

        expect(await store().users.create(impostor, session)).to.equal('taken');

        expect(await store().issuedTokens.listActiveByUser(impostor.username, T0)).to.deep.equal([]);
        expect(await store().issuedTokens.listActiveBySession(session.jti, T0)).to.deep.equal([]);
        expect(await store().users.findByUsername(impostor.username)).to.deep.equal(first);
      });
    });

    describe('profiles', () => {
      it('finds the profile of a user with every public field as stored, and no credential', async () => {
        const alice = aUser({ username: aUsername('alice'), createdAt: later(1234) });
        await store().users.create(alice);

        const profile = await store().users.findProfile(alice.username);

        expect(profile).to.deep.equal(profileOf(alice));
        expect(profile).to.not.have.any.keys('passwordHash', 'privateKeyPem');
        expect(profile?.createdAt).to.be.instanceOf(Date);
      });

      it('finds no profile under a name nobody registered', async () => {
        await store().users.create(aUser({ username: aUsername('alice') }));

        expect(await store().users.findProfile(aUsername('bob'))).to.equal(null);
      });

      it('finds the profile of a deleted user, with the time of its deletion', async () => {
        const alice = aUser({ username: aUsername('alice') });
        await store().users.create(alice);
        await removeAccount(alice.username, later(DAY));

        expect(await store().users.findProfile(alice.username)).to.deep.equal({
          ...profileOf(alice),
          deletedAt: later(DAY),
        });
      });
    });

    describe('deleted accounts', () => {
      it('leaves deleted accounts out of the count and the lists; the others keep their positions', async () => {
        for (const name of ['u_one', 'u_two', 'u_three', 'u_four'])
          await store().users.create(aUser({ username: aUsername(name) }));
        const before = new Map(
          (await store().users.listOlder(null, 10)).map((e): [string, number] => [
            e.value.username,
            e.position,
          ]),
        );

        await removeAccount(aUsername('u_two'), later(DAY));
        await removeAccount(aUsername('u_four'), later(DAY));

        expect(await store().users.count()).to.equal(2);
        const older = await store().users.listOlder(null, 10);
        expect(names(older)).to.deep.equal(['u_three', 'u_one']);
        expect(older.map((e) => e.position)).to.deep.equal([before.get('u_three'), before.get('u_one')]);
        expect(names(await store().users.listNewer(0, 10))).to.deep.equal(['u_one', 'u_three']);
        expect(names(await store().users.listOlder(before.get('u_three') as number, 10))).to.deep.equal([
          'u_one',
        ]);
        expect(names(await store().users.listNewer(before.get('u_one') as number, 1))).to.deep.equal([
          'u_three',
        ]);
      });

      it('keeps the name of a deleted account taken', async () => {
        const alice = aUser({ username: aUsername('alice') });
        await store().users.create(alice);
        await removeAccount(alice.username, later(DAY));

        expect(await store().users.create(aUser({ username: aUsername('alice') }))).to.equal('taken');

        expect(await store().users.findByUsername(alice.username)).to.deep.equal({
          ...alice,
          deletedAt: later(DAY),
        });
        expect(await store().users.count()).to.equal(0);
      });
    });

    const alice = aUsername('alice');
    const l1a = anL1Server('https://l1a.example');
    const l1b = anL1Server('https://l1b.example');
    const now = later(MINUTE);
    const notices = async (): Promise<unknown[]> =>
      (await drainJobs(store(), later(DAY))).map((j) => ({
        kind: j.kind,
        payload: j.payload,
        queuedAt: j.queuedAt,
      }));
    const noticeAt = (revocation: Revocation, at: Date = now): unknown => ({
      kind: 'revocation_notice',
      payload: revocation.notice,
      queuedAt: at,
    });

    describe('changing a password', () => {
      it('replaces the hash, records the revocations and queues a notice per revoked scoped token', async () => {
        const user = aUser({ username: alice });
        await store().users.create(user);
        const session = aRevocation({ username: alice });
        const scopedA = aRevocation({ username: alice, sessionJti: 's1', l1Server: l1a });
        const scopedB = aRevocation({ username: alice, sessionJti: 's1', l1Server: l1b });

        expect(
          await store().users.changePassword(alice, 'new-hash', [session, scopedA, scopedB], now),
        ).to.equal(3);

        expect(await store().users.findByUsername(alice)).to.deep.equal({
          ...user,
          passwordHash: 'new-hash',
        });
        for (const r of [session, scopedA, scopedB])
          expect(await store().revocations.isRevoked(r.record.tokenHash)).to.equal(true);
        expect(await notices()).to.have.deep.members([noticeAt(scopedA), noticeAt(scopedB)]);
        expect(await notices()).to.deep.equal([]);
      });

      it('counts only the new revocations and queues notices for those alone', async () => {
        await store().users.create(aUser({ username: alice }));
        const known = aRevocation({ username: alice, l1Server: l1a });
        const fresh = aRevocation({ username: alice, l1Server: l1b });
        await store().revocations.revoke([known], T0);
        await notices();

        expect(await store().users.changePassword(alice, 'second-hash', [known, fresh], now)).to.equal(1);
        expect(await notices()).to.deep.equal([noticeAt(fresh)]);

        const afterwards = later(MINUTE, now);
        expect(await store().users.changePassword(alice, 'third-hash', [known, fresh], afterwards)).to.equal(
          0,
        );
        expect((await store().users.findByUsername(alice))?.passwordHash).to.equal('third-hash');
        expect(await notices()).to.deep.equal([]);
      });

      it('rehashes only while the stored hash is the one the password was checked against, and no unknown user', async () => {
        const user = aUser({ username: alice, passwordHash: 'cost-10-hash' });
        await store().users.create(user);

        expect(await store().users.rehashPassword(alice, 'some-other-hash', 'cost-12-hash')).to.equal(false);
        expect((await store().users.findByUsername(alice))?.passwordHash).to.equal('cost-10-hash');
        expect(await store().users.rehashPassword(alice, 'cost-10-hash', 'cost-12-hash')).to.equal(true);
        expect(await store().users.findByUsername(alice)).to.deep.equal({
          ...user,
          passwordHash: 'cost-12-hash',
        });
        // A password change made meanwhile is never undone by a rehash of the old password.
        await store().users.changePassword(alice, 'changed-hash', [], now);
        expect(await store().users.rehashPassword(alice, 'cost-12-hash', 'stale-hash')).to.equal(false);
        expect((await store().users.findByUsername(alice))?.passwordHash).to.equal('changed-hash');
        expect(await store().users.rehashPassword('nobody' as Username, 'x', 'y')).to.equal(false);
      });

      it('replaces the hash with no revocation to record, and counts 0', async () => {
        const user = aUser({ username: alice });
        await store().users.create(user);

        expect(await store().users.changePassword(alice, 'new-hash', [], now)).to.equal(0);

        expect(await store().users.findByUsername(alice)).to.deep.equal({
          ...user,
          passwordHash: 'new-hash',
        });
        expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
      });

      it('changes no other account', async () => {
        const bob = aUser({ username: aUsername('bob') });
        await store().users.create(aUser({ username: alice }));
        await store().users.create(bob);

        await store().users.changePassword(alice, 'new-hash', [], now);

        expect(await store().users.findByUsername(bob.username)).to.deep.equal(bob);
      });

      it('answers null and writes nothing for a user nobody registered', async () => {
        await store().users.create(aUser({ username: aUsername('bob') }));
        const scoped = aRevocation({ username: alice, l1Server: l1a });

        expect(await store().users.changePassword(alice, 'new-hash', [scoped], now)).to.equal(null);

        expect(await store().users.findByUsername(alice)).to.equal(null);
        expect(await store().revocations.isRevoked(scoped.record.tokenHash)).to.equal(false);
        expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
        expect(await store().users.count()).to.equal(1);
      });

      it('answers null and writes nothing for a deleted user', async () => {
        const user = aUser({ username: alice });
        await store().users.create(user);
        await removeAccount(alice, now);
        const scoped = aRevocation({ username: alice, l1Server: l1a });
        const session = aRevocation({ username: alice });

        expect(
          await store().users.changePassword(alice, 'new-hash', [session, scoped], later(MINUTE, now)),
        ).to.equal(null);

        expect(await store().users.findByUsername(alice)).to.deep.equal({ ...user, deletedAt: now });
        for (const r of [session, scoped])
          expect(await store().revocations.isRevoked(r.record.tokenHash)).to.equal(false);
        expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
      });
    });

    describe('disabling and enabling', () => {
      it('marks the account disabled, records the revocations and queues a notice per revoked scoped token', async () => {
        const user = aUser({ username: alice });
        await store().users.create(user);
        const session = aRevocation({ username: alice });
        const scoped = aRevocation({ username: alice, l1Server: l1a });

        expect(await store().users.disable(alice, [session, scoped], now)).to.equal(2);

        expect(await store().users.findByUsername(alice)).to.deep.equal({ ...user, disabledAt: now });
        expect(await store().users.findProfile(alice)).to.deep.equal({ ...profileOf(user), disabledAt: now });
        for (const r of [session, scoped])
          expect(await store().revocations.isRevoked(r.record.tokenHash)).to.equal(true);
        expect(await notices()).to.deep.equal([noticeAt(scoped)]);
      });

      it('keeps a disabled account in the count and the lists, at its place', async () => {
        for (const name of ['u_one', 'u_two', 'u_three'])
          await store().users.create(aUser({ username: aUsername(name) }));
        const before = await store().users.listOlder(null, 10);

        await store().users.disable(aUsername('u_two'), [], now);

        expect(await store().users.count()).to.equal(3);
        const after = await store().users.listOlder(null, 10);
        expect(after.map((e) => [e.value.username, e.position, e.value.disabledAt])).to.deep.equal(
          before.map((e) => [e.value.username, e.position, e.value.username === 'u_two' ? now : null]),
        );
      });

      it('keeps the first time when disabled again, counting only new revocations', async () => {
        await store().users.create(aUser({ username: alice }));
        const first = aRevocation({ username: alice, l1Server: l1a });
        const second = aRevocation({ username: alice, l1Server: l1b });
        await store().users.disable(alice, [first], now);
        await notices();

        const afterwards = later(MINUTE, now);
        expect(await store().users.disable(alice, [first, second], afterwards)).to.equal(1);

        expect((await store().users.findProfile(alice))?.disabledAt).to.deep.equal(now);
        expect(await notices()).to.deep.equal([noticeAt(second, afterwards)]);
      });

      it('enables a disabled account as it was; enabling an enabled one changes nothing', async () => {
        const user = aUser({ username: alice });
        await store().users.create(user);
        await store().users.disable(alice, [], now);

        expect(await store().users.enable(alice)).to.equal(true);
        expect(await store().users.findByUsername(alice)).to.deep.equal(user);
        expect(await store().users.enable(alice)).to.equal(true);
        expect(await store().users.findByUsername(alice)).to.deep.equal(user);
      });

      it('answers null and false, and writes nothing, for a deleted user or one nobody registered', async () => {
        const user = aUser({ username: alice });
        await store().users.create(user);
        await removeAccount(alice, now);
        const scoped = aRevocation({ username: alice, l1Server: l1a });

        expect(await store().users.disable(alice, [scoped], later(MINUTE, now))).to.equal(null);
        expect(await store().users.disable(aUsername('nobody'), [scoped], now)).to.equal(null);
        expect(await store().users.enable(alice)).to.equal(false);
        expect(await store().users.enable(aUsername('nobody'))).to.equal(false);

        expect(await store().users.findByUsername(alice)).to.deep.equal({ ...user, deletedAt: now });
        expect(await store().revocations.isRevoked(scoped.record.tokenHash)).to.equal(false);
        expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
      });
    });
  });
}
