import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { ProfileChange, UserRepository } from '../../../application/ports/user-repository.js';
import type { IssuedToken, Revocation } from '../../../domain/revocation.js';
import type { User, UserProfile, Username } from '../../../domain/user.js';
import { PUBLIC_USER_LIST, USER_ROWS, userProfileOf } from './codecs/user-rows.js';
import { insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { prepareIssuedTokenInsert } from './sqlite-issued-token-registry.js';
import { prepareProfileWrite } from './sqlite-profile-write.js';
import { prepareRevocationWrite } from './sqlite-revocation-store.js';
import { NO_POSITION_BOUND } from './sqlite-seeks.js';

type UserRow = RowOf<typeof USER_ROWS.columns>;
type ProfileRow = Parameters<typeof userProfileOf>[0] & { seq: number };

/** Public pages read these columns only: no password hash, no private key leaves the store for them. */
const PROFILE = `seq, ${PUBLIC_USER_LIST}`;

const positioned = (row: ProfileRow): Positioned<UserProfile> => ({
  position: row.seq,
  value: userProfileOf(row),
});

/** Positions are `seq`, handed out in registration order by AUTOINCREMENT; a deleted account keeps its row. */
export class SqliteUserRepository implements UserRepository {
  private readonly insertNew: Transaction<(user: User, firstSession?: IssuedToken) => boolean>;
  private readonly passwordChange: Transaction<
    (username: string, hash: string, revocations: readonly Revocation[], now: Date) => number | null
  >;
  private readonly disableWrite: Transaction<
    (username: string, revocations: readonly Revocation[], now: Date) => number | null
  >;
  private readonly profileUpdate: Transaction<
    (change: ProfileChange, now: Date) => 'updated' | 'conflict' | 'not_found'
  >;
  private readonly enableWrite: Statement<[string]>;
  private readonly rehash: Statement<[string, string, string]>;
  private readonly selectOne: Statement<[string], UserRow>;
  private readonly selectProfile: Statement<[string], ProfileRow>;
  private readonly countLive: Statement<[], { n: number }>;
  private readonly selectOlder: Statement<[number, number], ProfileRow>;
  private readonly selectNewer: Statement<[number, number], ProfileRow>;

  constructor(db: Database) {
    // The unique username decides a race between two registrations; only that conflict is ignored.
    const insert = db.prepare<[UserRow]>(insertSql(USER_ROWS, 'ON CONFLICT (username) DO NOTHING'));
    const countOne = db.prepare("UPDATE counters SET value = value + 1 WHERE name = 'users'");
    const insertToken = prepareIssuedTokenInsert(db);
    this.insertNew = db.transaction((user: User, firstSession?: IssuedToken) => {
      const { changes } = insert.run(USER_ROWS.toRow(user));
      if (changes !== 1) return false;
      countOne.run();
      if (firstSession) insertToken(firstSession);
      return true;
    });
    const setHash = db.prepare<[string, string]>(
      'UPDATE users SET password_hash = ? WHERE username = ? AND deleted_at IS NULL',
    );
    const revoke = prepareRevocationWrite(db);
    this.passwordChange = db.transaction(
      (username: string, hash: string, revocations: readonly Revocation[], now: Date) =>
        setHash.run(hash, username).changes === 1 ? revoke(revocations, now) : null,
    );
    const markDisabled = db.prepare<[number, string]>(
      'UPDATE users SET disabled_at = coalesce(disabled_at, ?) WHERE username = ? AND deleted_at IS NULL',
    );
    this.disableWrite = db.transaction((username: string, revocations: readonly Revocation[], now: Date) =>
      markDisabled.run(now.getTime(), username).changes === 1 ? revoke(revocations, now) : null,
    );
    const profileWrite = prepareProfileWrite(db);
    this.profileUpdate = db.transaction((change: ProfileChange, now: Date) => {
      const refused = profileWrite.refusal(change);
      if (refused) return refused;
      profileWrite.write(change, now);
      return 'updated';
    });
    this.enableWrite = db.prepare(
      'UPDATE users SET disabled_at = NULL WHERE username = ? AND deleted_at IS NULL',
    );
    this.rehash = db.prepare(
      'UPDATE users SET password_hash = ? WHERE username = ? AND password_hash = ? AND deleted_at IS NULL',
    );
    this.selectOne = db.prepare(`SELECT ${USER_ROWS.list} FROM users WHERE username = ?`);
    this.selectProfile = db.prepare(`SELECT ${PROFILE} FROM users WHERE username = ?`);
    this.countLive = db.prepare("SELECT value AS n FROM counters WHERE name = 'users'");
    this.selectOlder = db.prepare(
      `SELECT ${PROFILE} FROM users WHERE seq < ? AND deleted_at IS NULL ORDER BY seq DESC LIMIT ?`,
    );
    this.selectNewer = db.prepare(
      `SELECT ${PROFILE} FROM users WHERE seq > ? AND deleted_at IS NULL ORDER BY seq LIMIT ?`,
    );
  }

  async create(user: User, firstSession?: IssuedToken): Promise<'created' | 'taken'> {
    return storeCall(() => this.insertNew.immediate(user, firstSession)) ? 'created' : 'taken';
  }

  async findByUsername(username: Username): Promise<User | null> {
    const row = storeCall(() => this.selectOne.get(username));
    return row ? USER_ROWS.fromRow(row) : null;
  }

  async findProfile(username: Username): Promise<UserProfile | null> {
    const row = storeCall(() => this.selectProfile.get(username));
    return row ? userProfileOf(row) : null;
  }

  async count(): Promise<number> {
    return storeCall(() => this.countLive.get())?.n ?? 0;
  }

  async listOlder(before: number | null, limit: number): Promise<Positioned<UserProfile>[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0) return [];
    return storeCall(() => this.selectOlder.all(before ?? NO_POSITION_BOUND, limit)).map(positioned);
  }

  async listNewer(after: number, limit: number): Promise<Positioned<UserProfile>[]> {
    if (limit <= 0) return [];
    return storeCall(() => this.selectNewer.all(after, limit)).map(positioned);
  }

  async rehashPassword(username: Username, previousHash: string, passwordHash: string): Promise<boolean> {
    return storeCall(() => this.rehash.run(passwordHash, username, previousHash).changes === 1);
  }

  async disable(username: Username, revocations: readonly Revocation[], now: Date): Promise<number | null> {
    return storeCall(() => this.disableWrite.immediate(username, revocations, now));
  }

  async enable(username: Username): Promise<boolean> {
    return storeCall(() => this.enableWrite.run(username).changes === 1);
  }

  async changePassword(
    username: Username,
    passwordHash: string,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<number | null> {
    return storeCall(() => this.passwordChange.immediate(username, passwordHash, revocations, now));
  }

  async updateProfile(change: ProfileChange, now: Date): Promise<'updated' | 'conflict' | 'not_found'> {
    return storeCall(() => this.profileUpdate.immediate(change, now));
  }
}
