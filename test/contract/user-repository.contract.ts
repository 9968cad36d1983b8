import { expect } from 'chai';
import type { Positioned } from '../../src/application/ports/positioned.js';
import type { User } from '../../src/domain/user.js';
import { aUser, aUsername, later, T0 } from '../support/builders.js';
import {
  strictlyDecreasing,
  strictlyIncreasing,
  useStore,
  walkNewer,
  walkOlder,
  type PersistenceHarness,
} from './harness.js';

const names = (entries: readonly Positioned<User>[]): string[] => entries.map((e) => e.value.username);

export function userRepositoryContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: UserRepository`, () => {
    const store = useStore(harness);

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

        expect(listed.map((e) => e.value)).to.deep.equal([mia, amy, zed]);
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

      it('returns every field of a listed user as stored', async () => {
        const [alice] = await register('alice');

        const [listed] = await users().listOlder(null, 1);

        expect(listed?.value).to.deep.equal(alice);
      });

      it('gives 23 users, registered concurrently, distinct positions, and pages see each exactly once', async () => {
        const all = Array.from({ length: 23 }, (_, i) => aUser({ username: aUsername(`walker_${i}`) }));
        await Promise.all(all.map((user) => users().create(user)));

        const older = await walkOlder((before, limit) => users().listOlder(before, limit), 5);
        const oldest = older[older.length - 1] as Positioned<User>;
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
        const [listed] = (await users().listOlder(null, 1)) as [Positioned<User>];
        listed.value.createdAt.setTime(0);

        expect((await users().listNewer(listed.position - 1, 1))[0]?.value).to.deep.equal(alice);
      });
    });
  });
}
