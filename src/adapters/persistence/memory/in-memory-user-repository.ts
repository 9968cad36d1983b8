import type { Positioned } from '../../../application/ports/positioned.js';
import type { UserRepository } from '../../../application/ports/user-repository.js';
import type { User, Username } from '../../../domain/user.js';
import { MemoryDatabase, type StoredUser } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';

const copyOf = (user: User): User => ({ ...user, createdAt: new Date(user.createdAt) });
const every = (): boolean => true;
const userOf = (stored: StoredUser): User => copyOf(stored.user);

/** Positions are registration order, 1, 2, 3, … (users are never deleted). */
export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async create(user: User): Promise<'created' | 'taken'> {
    this.db.assertOpen();
    if (this.db.users.has(user.username)) return 'taken';
    this.db.insertUser(copyOf(user));
    return 'created';
  }

  async findByUsername(username: Username): Promise<User | null> {
    this.db.assertOpen();
    const stored = this.db.users.get(username);
    return stored ? copyOf(stored.user) : null;
  }

  async count(): Promise<number> {
    this.db.assertOpen();
    return this.db.users.size;
  }

  async listOlder(before: number | null, limit: number): Promise<Positioned<User>[]> {
    this.db.assertOpen();
    return seekOlder(this.db.usersInOrder, before, limit, every, userOf);
  }

  async listNewer(after: number, limit: number): Promise<Positioned<User>[]> {
    this.db.assertOpen();
    return seekNewer(this.db.usersInOrder, after, limit, every, userOf);
  }
}
