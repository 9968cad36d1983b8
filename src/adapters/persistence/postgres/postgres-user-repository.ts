import type { Positioned } from '../../../application/ports/positioned.js';
import type { ProfileChange, UserRepository } from '../../../application/ports/user-repository.js';
import type { IssuedToken, Revocation } from '../../../domain/revocation.js';
import type { User, UserProfile, Username } from '../../../domain/user.js';
import { PUBLIC_USER_LIST, USER_ROWS, userProfileOf } from './codecs/user-rows.js';
import { insertSql, type RowOf } from './postgres-codec.js';
import type { PostgresDatabase } from './postgres-database.js';
import { insertIssuedToken } from './postgres-issued-token-registry.js';
import { profileRefusal, writeProfile } from './postgres-profile-write.js';
import { writeRevocations } from './postgres-revocation-store.js';
import { NO_POSITION_BOUND } from './postgres-seeks.js';
import { named } from './postgres-sql.js';

type UserRow = RowOf<typeof USER_ROWS.columns>;
type ProfileRow = Parameters<typeof userProfileOf>[0] & { seq: number };

/** Public pages read these columns only: no password hash, no private key leaves the store for them. */
const PROFILE = `seq, ${PUBLIC_USER_LIST}`;

const positioned = (row: ProfileRow): Positioned<UserProfile> => ({
  position: row.seq,
  value: userProfileOf(row),
});

/** The unique username decides a race between two registrations (on any instances); only that conflict is ignored. */
const INSERT = named<UserRow>(insertSql(USER_ROWS, 'ON CONFLICT (username) DO NOTHING'));

/** Positions are `seq`, handed out in registration order by an identity column; a deleted account keeps its row. */
export class PostgresUserRepository implements UserRepository {
  constructor(private readonly db: PostgresDatabase) {}

  async create(user: User, firstSession?: IssuedToken): Promise<'created' | 'taken'> {
    return this.db.transaction<'created' | 'taken'>(async (tx, refuse) => {
      if ((await INSERT.run(tx, USER_ROWS.toRow(user))).count !== 1) return refuse('taken');
      await tx.query("UPDATE counters SET value = value + 1 WHERE name = 'users'");
      if (firstSession) await insertIssuedToken(tx, firstSession);
      return 'created';
    });
  }

  async findByUsername(username: Username): Promise<User | null> {
    const [row] = await this.db.query<UserRow>(`SELECT ${USER_ROWS.list} FROM users WHERE username = $1`, [
      username,
    ]);
    return row ? USER_ROWS.fromRow(row) : null;
  }

  async findProfile(username: Username): Promise<UserProfile | null> {
    const [row] = await this.db.query<ProfileRow>(`SELECT ${PROFILE} FROM users WHERE username = $1`, [
      username,
    ]);
    return row ? userProfileOf(row) : null;
  }

  async count(): Promise<number> {
    const [row] = await this.db.query<{ n: number }>("SELECT value AS n FROM counters WHERE name = 'users'");
    return row?.n ?? 0;
  }

  async listOlder(before: number | null, limit: number): Promise<Positioned<UserProfile>[]> {
    if (limit <= 0) return [];
    const rows = await this.db.query<ProfileRow>(
      `SELECT ${PROFILE} FROM users WHERE seq < $1 AND deleted_at IS NULL ORDER BY seq DESC LIMIT $2`,
      [before ?? NO_POSITION_BOUND, limit],
    );
    return rows.map(positioned);
  }

  async listNewer(after: number, limit: number): Promise<Positioned<UserProfile>[]> {
    if (limit <= 0) return [];
    const rows = await this.db.query<ProfileRow>(
      `SELECT ${PROFILE} FROM users WHERE seq > $1 AND deleted_at IS NULL ORDER BY seq LIMIT $2`,
      [after, limit],
    );
    return rows.map(positioned);
  }

  async rehashPassword(username: Username, previousHash: string, passwordHash: string): Promise<boolean> {
    const { count } = await this.db.query(
      'UPDATE users SET password_hash = $1 WHERE username = $2 AND password_hash = $3 AND deleted_at IS NULL',
      [passwordHash, username, previousHash],
    );
    return count === 1;
  }

  async disable(username: Username, revocations: readonly Revocation[], now: Date): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const { count } = await tx.query(
        'UPDATE users SET disabled_at = COALESCE(disabled_at, $1) WHERE username = $2 AND deleted_at IS NULL',
        [now, username],
      );
      return count === 1 ? writeRevocations(tx, revocations, now) : null;
    });
  }

  async enable(username: Username): Promise<boolean> {
    const { count } = await this.db.query(
      'UPDATE users SET disabled_at = NULL WHERE username = $1 AND deleted_at IS NULL',
      [username],
    );
    return count === 1;
  }

  async changePassword(
    username: Username,
    passwordHash: string,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const { count } = await tx.query(
        'UPDATE users SET password_hash = $1 WHERE username = $2 AND deleted_at IS NULL',
        [passwordHash, username],
      );
      return count === 1 ? writeRevocations(tx, revocations, now) : null;
    });
  }

  async updateProfile(change: ProfileChange, now: Date): Promise<'updated' | 'conflict' | 'not_found'> {
    return this.db.transaction(async (tx) => {
      const refused = await profileRefusal(tx, change);
      if (refused) return refused;
      await writeProfile(tx, change, now);
      return 'updated';
    });
  }
}
