import type { Positioned } from '../../../application/ports/positioned.js';
import type { ProfileChange, UserRepository } from '../../../application/ports/user-repository.js';
import type { IssuedToken, Revocation } from '../../../domain/revocation.js';
import { profileOf, type User, type UserProfile, type Username } from '../../../domain/user.js';
import { copyOfProfile } from '../stored-profile.js';
import { MemoryDatabase, type StoredUser } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';

const copyOf = (user: User): User => ({
  ...user,
  createdAt: new Date(user.createdAt),
  deletedAt: user.deletedAt && new Date(user.deletedAt),
  disabledAt: user.disabledAt && new Date(user.disabledAt),
  profile: copyOfProfile(user.profile),
});
const live = (stored: StoredUser): boolean => stored.user.deletedAt === null;
const profile = (stored: StoredUser): UserProfile => profileOf(copyOf(stored.user));

/** Positions are registration order, 1, 2, 3, …; a deleted account keeps its place and its name. */
export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async create(user: User, firstSession?: IssuedToken): Promise<'created' | 'taken'> {
    this.db.assertOpen();
    if (this.db.users.has(user.username)) return 'taken';
    this.db.insertUser(copyOf(user));
    if (firstSession) this.db.issuedTokens.set(firstSession.tokenHash, { ...firstSession });
    return 'created';
  }

  async findByUsername(username: Username): Promise<User | null> {
    this.db.assertOpen();
    const stored = this.db.users.get(username);
    return stored ? copyOf(stored.user) : null;
  }

  async findProfile(username: Username): Promise<UserProfile | null> {
    this.db.assertOpen();
    const stored = this.db.users.get(username);
    return stored ? profile(stored) : null;
  }

  async count(): Promise<number> {
    this.db.assertOpen();
    return this.db.users.size - this.db.deletedUsers;
  }

  async listOlder(before: number | null, limit: number): Promise<Positioned<UserProfile>[]> {
    this.db.assertOpen();
    return seekOlder(this.db.usersInOrder, before, limit, live, profile);
  }

  async listNewer(after: number, limit: number): Promise<Positioned<UserProfile>[]> {
    this.db.assertOpen();
    return seekNewer(this.db.usersInOrder, after, limit, live, profile);
  }

  async rehashPassword(username: Username, previousHash: string, passwordHash: string): Promise<boolean> {
    this.db.assertOpen();
    const stored = this.db.users.get(username);
    if (!stored || !live(stored) || stored.user.passwordHash !== previousHash) return false;
    stored.user = { ...stored.user, passwordHash };
    return true;
  }

  async disable(username: Username, revocations: readonly Revocation[], now: Date): Promise<number | null> {
    this.db.assertOpen();
    const stored = this.db.users.get(username);
    if (!stored || !live(stored)) return null;
    const revoked = this.db.revoke(revocations, now);
    stored.user = { ...stored.user, disabledAt: stored.user.disabledAt ?? new Date(now) };
    return revoked;
  }

  async enable(username: Username): Promise<boolean> {
    this.db.assertOpen();
    const stored = this.db.users.get(username);
    if (!stored || !live(stored)) return false;
    stored.user = { ...stored.user, disabledAt: null };
    return true;
  }

  async changePassword(
    username: Username,
    passwordHash: string,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<number | null> {
    this.db.assertOpen();
    const stored = this.db.users.get(username);
    if (!stored || !live(stored)) return null;
    // Revocations first: were they to fail, the old password would stay with more tokens revoked, never the new
    // password with the old tokens alive.
    const revoked = this.db.revoke(revocations, now);
    stored.user = { ...stored.user, passwordHash };
    return revoked;
  }

  async updateProfile(change: ProfileChange, now: Date): Promise<'updated' | 'conflict' | 'not_found'> {
    this.db.assertOpen();
    const refused = this.db.profileRefusal(change);
    if (refused) return refused;
    this.db.writeProfile(change, now);
    return 'updated';
  }
}
