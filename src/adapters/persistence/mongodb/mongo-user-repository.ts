import type { MongoClient } from 'mongodb';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { UserRepository } from '../../../application/ports/user-repository.js';
import type { User, Username } from '../../../domain/user.js';
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import type { MongoCollections, UserDocument } from './mongo-schema.js';
import { seek } from './mongo-seeks.js';
import { addToCounter, readCounter, transaction } from './mongo-transactions.js';

const fromDocument = (doc: UserDocument): User => ({
  username: doc._id as Username,
  passwordHash: doc.passwordHash,
  publicKeyPem: doc.publicKeyPem,
  privateKeyPem: doc.privateKeyPem,
  createdAt: doc.createdAt,
});

const positioned = (doc: UserDocument): Positioned<User> => ({ position: doc.seq, value: fromDocument(doc) });

/**
 * Users keyed by username (`_id`, so the unique key decides a race between two registrations). Positions are `seq`,
 * 1, 2, 3, … taken from the `users` counter in the transaction of the insert, so they are dense and in
 * registration order (users are never deleted), and the counter is also the count.
 */
export class MongoUserRepository implements UserRepository {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async create(user: User): Promise<'created' | 'taken'> {
    const { users, counters } = this.collections;
    return storeCall(() =>
      transaction<'created' | 'taken'>(this.client, async (session, refuse) => {
        // Seen in the snapshot: the name was taken before this transaction began. A registration committed since
        // then makes the insert below a WriteConflict, and the retried transaction finds it here.
        if (await users.findOne({ _id: user.username }, { session, projection: { _id: 1 } })) refuse('taken');
        const seq = await addToCounter(counters, 'users', 1, session);
        try {
          await users.insertOne(
            {
              _id: user.username,
              seq,
              passwordHash: user.passwordHash,
              publicKeyPem: user.publicKeyPem,
              privateKeyPem: user.privateKeyPem,
              createdAt: user.createdAt,
            },
            { session },
          );
        } catch (error) {
          if (isDuplicateKey(error)) refuse('taken');
          throw error;
        }
        return 'created';
      }),
    );
  }

  async findByUsername(username: Username): Promise<User | null> {
    const doc = await storeCall(() => this.collections.users.findOne({ _id: username }));
    return doc ? fromDocument(doc) : null;
  }

  async count(): Promise<number> {
    return storeCall(() => readCounter(this.collections.counters, 'users'));
  }

  async listOlder(before: number | null, limit: number): Promise<Positioned<User>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.users, {}, 'seq', { direction: 'older', position: before, limit }),
    );
    return docs.map(positioned);
  }

  async listNewer(after: number, limit: number): Promise<Positioned<User>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.users, {}, 'seq', { direction: 'newer', position: after, limit }),
    );
    return docs.map(positioned);
  }
}
