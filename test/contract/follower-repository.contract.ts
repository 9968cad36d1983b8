import { expect } from 'chai';
import type { Persistence } from '../../src/application/ports/persistence.js';
import type { Username } from '../../src/domain/user.js';
import { aUsername, later, MINUTE } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

/** A row of the followers table, which only federation will fill; tests put it there through the adapter's store. */
export interface FollowerSeed {
  readonly username: Username;
  readonly actor: string;
  readonly inbox: string;
  readonly sharedInbox: string | null;
  readonly followedAt: Date;
}

export type AddFollower<S extends Persistence> = (store: S, follower: FollowerSeed) => void | Promise<void>;

export function followerRepositoryContract<S extends Persistence>(
  name: string,
  harness: PersistenceHarness<S>,
  addFollower: AddFollower<S>,
): void {
  describe(`${name}: FollowerRepository`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');

    const follow = (username: Username, host: string, sharedInbox: string | null = null): Promise<void> =>
      Promise.resolve(
        addFollower(store(), {
          username,
          actor: `https://${host}/users/someone`,
          inbox: `https://${host}/users/someone/inbox`,
          sharedInbox,
          followedAt: later(MINUTE),
        }),
      );

    it('counts 0 followers for a user nobody follows', async () => {
      expect(await store().followers.count(alice)).to.equal(0);
    });

    it("counts each user's own followers only", async () => {
      await follow(alice, 'one.example', 'https://one.example/inbox');
      await follow(alice, 'two.example');
      await follow(alice, 'three.example');
      await follow(bob, 'one.example', 'https://one.example/inbox');

      expect(await store().followers.count(alice)).to.equal(3);
      expect(await store().followers.count(bob)).to.equal(1);
      expect(await store().followers.count(aUsername('carol'))).to.equal(0);
    });
  });
}
