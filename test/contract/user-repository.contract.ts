import { expect } from 'chai';
import { aUser, aUsername, later, T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

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
  });
}
