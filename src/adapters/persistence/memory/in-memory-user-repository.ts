import type { UserRepository } from '../../../application/ports/user-repository.js';
import type { User, Username } from '../../../domain/user.js';
import { MemoryDatabase } from './memory-database.js';

const copyOf = (user: User): User => ({ ...user, createdAt: new Date(user.createdAt) });

export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async create(user: User): Promise<'created' | 'taken'> {
    this.db.assertOpen();
    if (this.db.users.has(user.username)) return 'taken';
    this.db.users.set(user.username, copyOf(user));
    return 'created';
  }

  async findByUsername(username: Username): Promise<User | null> {
    this.db.assertOpen();
    const user = this.db.users.get(username);
    return user ? copyOf(user) : null;
  }

  async count(): Promise<number> {
    this.db.assertOpen();
    return this.db.users.size;
  }
}
