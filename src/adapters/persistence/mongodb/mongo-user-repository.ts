import type { MongoClient } from 'mongodb';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { ProfileChange, UserRepository } from '../../../application/ports/user-repository.js';
import type { IssuedToken, Revocation } from '../../../domain/revocation.js';
import type { User, UserProfile, Username } from '../../../domain/user.js';
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import { queueProfileUpdatesIn, writeProfileIn } from './mongo-profile-write.js';
import { ISSUED_TOKEN_DOCUMENTS } from './codecs/token-documents.js';
import {
  PUBLIC_USER_FIELDS,
  USER_DOCUMENTS,
  userProfileOf,
  type PublicUserDocument,
} from './codecs/user-documents.js';
import type { MongoCollections } from './mongo-schema.js';
import { seek } from './mongo-seeks.js';
import { revokeIn } from './mongo-revocation-store.js';
import { addToCounter, readCounter, transaction } from './mongo-transactions.js';

const positioned = (doc: PublicUserDocument): Positioned<UserProfile> => ({
  position: doc.seq,
  value: userProfileOf(doc),
});

/**
 * Live accounts: `deletedAt` null or absent (documents written before deletion existed), so an equality with null
 * rather than assets' `$type: 'null'`. Served by `users_live_by_seq` (before MongoDB 8.0 null also matches the
 * BSON type undefined: two index intervals, merged in seq order — still no blocking sort). Exported for the
 * query-plan tests.
 */
export const LIVE_USERS = { deletedAt: null };

/**
 * Users keyed by username (`_id`, so the unique key decides a race between two registrations). Usernames arrive
 * lower-cased (`normaliseUsername`, which the `Username` type stands for), so the byte-wise `_id` index is the
 * case-insensitive uniqueness the service promises, with no collation (one would also have to match every query's).
 * Positions are `seq`, 1, 2, 3, … taken from the `users` counter in the transaction of the insert, so they are in
 * registration order; a deleted account keeps its document. `live_users` counts the accounts not deleted.
 */
export class MongoUserRepository implements UserRepository {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async create(user: User, firstSession?: IssuedToken): Promise<'created' | 'taken'> {
    const { users, counters, issuedTokens } = this.collections;
    return storeCall(() =>
      transaction<'created' | 'taken'>(this.client, async (session, refuse) => {
        // Seen in the snapshot: the name was taken before this transaction began. A registration committed since
        // then makes the insert below a WriteConflict, and the retried transaction finds it here.
        if (await users.findOne({ _id: user.username }, { session, projection: { _id: 1 } })) refuse('taken');
        const seq = await addToCounter(counters, 'users', 1, session);
        try {
          await users.insertOne({ ...USER_DOCUMENTS.toDocument(user), seq }, { session });
        } catch (error) {
          if (isDuplicateKey(error)) refuse('taken');
          throw error;
        }
        await addToCounter(counters, 'live_users', 1, session);
        if (firstSession)
          await issuedTokens.insertOne(ISSUED_TOKEN_DOCUMENTS.toDocument(firstSession), { session });
        return 'created';
      }),
    );
  }

  async findByUsername(username: Username): Promise<User | null> {
    const doc = await storeCall(() => this.collections.users.findOne({ _id: username }));
    return doc ? USER_DOCUMENTS.fromDocument(doc) : null;
  }

  async findProfile(username: Username): Promise<UserProfile | null> {
    const doc = await storeCall(() =>
      this.collections.users.findOne<PublicUserDocument>(
        { _id: username },
        { projection: PUBLIC_USER_FIELDS },
      ),
    );
    return doc ? userProfileOf(doc) : null;
  }

  async count(): Promise<number> {
    return storeCall(() => readCounter(this.collections.counters, 'live_users'));
  }

  async listOlder(before: number | null, limit: number): Promise<Positioned<UserProfile>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.users, LIVE_USERS, 'seq', { direction: 'older', position: before, limit }),
    );
    return docs.map(positioned);
  }

  async listNewer(after: number, limit: number): Promise<Positioned<UserProfile>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.users, LIVE_USERS, 'seq', { direction: 'newer', position: after, limit }),
    );
    return docs.map(positioned);
  }

  async rehashPassword(username: Username, previousHash: string, passwordHash: string): Promise<boolean> {
    const updated = await storeCall(() =>
      this.collections.users.updateOne(
        { _id: username, passwordHash: previousHash, ...LIVE_USERS },
        { $set: { passwordHash } },
      ),
    );
    return updated.modifiedCount === 1;
  }

  async disable(username: Username, revocations: readonly Revocation[], now: Date): Promise<number | null> {
    return storeCall(() =>
      transaction<number | null>(this.client, async (session, refuse) => {
        // An update pipeline keeps the first time of an account disabled already.
        const updated = await this.collections.users.updateOne(
          { _id: username, ...LIVE_USERS },
          [{ $set: { disabledAt: { $ifNull: ['$disabledAt', now] } } }],
          { session },
        );
        if (updated.matchedCount !== 1) refuse(null);
        return revokeIn(this.collections, revocations, now, session);
      }),
    );
  }

  async enable(username: Username): Promise<boolean> {
    const updated = await storeCall(() =>
      this.collections.users.updateOne({ _id: username, ...LIVE_USERS }, { $set: { disabledAt: null } }),
    );
    return updated.matchedCount === 1;
  }

  async changePassword(
    username: Username,
    passwordHash: string,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<number | null> {
    return storeCall(() =>
      transaction<number | null>(this.client, async (session, refuse) => {
        const updated = await this.collections.users.updateOne(
          { _id: username, ...LIVE_USERS },
          { $set: { passwordHash } },
          { session },
        );
        if (updated.matchedCount !== 1) refuse(null);
        return revokeIn(this.collections, revocations, now, session);
      }),
    );
  }

  async updateProfile(change: ProfileChange, now: Date): Promise<'updated' | 'conflict' | 'not_found'> {
    return storeCall(() =>
      transaction<'updated' | 'conflict' | 'not_found'>(this.client, async (session, refuse) => {
        const outcome = await writeProfileIn(this.collections, change, session);
        if (outcome !== 'updated') refuse(outcome);
        await queueProfileUpdatesIn(this.collections, change.username, now, session, change.moveDocument);
        return 'updated';
      }),
    );
  }
}
