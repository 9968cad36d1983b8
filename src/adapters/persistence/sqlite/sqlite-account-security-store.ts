import type { Database, Statement, Transaction } from 'better-sqlite3';
import type {
  AccountSecurityStore,
  SecurityChange,
  SecurityChangeOutcome,
} from '../../../application/ports/account-security-store.js';
import type {
  AccountEvent,
  AccountEventKind,
  AccountFactors,
  Challenge,
  ChallengeKind,
  Passkey,
} from '../../../domain/account-security.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './sqlite-errors.js';
import { prepareRevocationWrite } from './sqlite-revocation-store.js';

interface PasskeyRow {
  credential_id: string;
  username: string;
  user_handle: string;
  name: string;
  public_key: string;
  counter: number;
  transports: string;
  backup_eligible: number;
  created_at: number;
  last_used_at: number | null;
}

interface ChallengeRow {
  id_hash: string;
  kind: string;
  username: string | null;
  data: string;
  expires_at: number;
}

interface EventRow {
  username: string;
  kind: string;
  detail: string | null;
  at: number;
  address: string | null;
}

export const passkeyOf = (row: PasskeyRow): Passkey => ({
  credentialId: row.credential_id,
  username: row.username as Username,
  userHandle: row.user_handle,
  name: row.name,
  publicKey: row.public_key,
  counter: row.counter,
  transports: JSON.parse(row.transports) as string[],
  backupEligible: row.backup_eligible === 1,
  createdAt: new Date(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
});

const challengeOf = (row: ChallengeRow): Challenge => ({
  idHash: row.id_hash,
  kind: row.kind as ChallengeKind,
  username: row.username as Username | null,
  data: JSON.parse(row.data) as Challenge['data'],
  expiresAt: new Date(row.expires_at),
});

export const eventOf = (row: EventRow): AccountEvent => ({
  username: row.username as Username,
  kind: row.kind as AccountEventKind,
  detail: row.detail,
  at: new Date(row.at),
  address: row.address,
});

/** Prepares the insert of history entries (to run inside a transaction). */
export function prepareEventInsert(db: Database): (events: readonly AccountEvent[]) => void {
  const insert = db.prepare<[string, string, string | null, number, string | null]>(
    'INSERT INTO account_events (username, kind, detail, at, address) VALUES (?, ?, ?, ?, ?)',
  );
  return (events) => {
    for (const e of events) insert.run(e.username, e.kind, e.detail, e.at.getTime(), e.address);
  };
}

/** Prepares the insert of a passkey (to run inside a transaction); false when its credential id is taken. */
export function preparePasskeyInsert(db: Database): (passkey: Passkey) => boolean {
  const insert = db.prepare(`
    INSERT INTO passkeys (credential_id, username, user_handle, name, public_key, counter, transports,
      backup_eligible, created_at, last_used_at)
    VALUES (@credential_id, @username, @user_handle, @name, @public_key, @counter, @transports, @backup_eligible,
      @created_at, @last_used_at)
    ON CONFLICT (credential_id) DO NOTHING`);
  return (p) =>
    insert.run({
      credential_id: p.credentialId,
      username: p.username,
      user_handle: p.userHandle,
      name: p.name,
      public_key: p.publicKey,
      counter: p.counter,
      transports: JSON.stringify(p.transports),
      backup_eligible: p.backupEligible ? 1 : 0,
      created_at: p.createdAt.getTime(),
      last_used_at: p.lastUsedAt?.getTime() ?? null,
    }).changes === 1;
}

/** The refusal that rolls `apply`'s transaction back, carrying its outcome out of it. */
class Refused extends Error {
  constructor(readonly outcome: SecurityChangeOutcome) {
    super(outcome.type);
  }
}

export class SqliteAccountSecurityStore implements AccountSecurityStore {
  private readonly applyWrite: Transaction<(change: SecurityChange, now: Date) => SecurityChangeOutcome>;
  private readonly recoveryUse: Transaction<(username: string, hash: string, event: AccountEvent) => boolean>;
  private readonly challengePut: Transaction<(challenge: Challenge, exclusive: boolean) => void>;
  private readonly selectTotp: Statement<
    [string],
    { secret: string; enabled_at: number; last_used_step: number }
  >;
  private readonly selectEnrolment: Statement<[string], { secret: string; created_at: number }>;
  private readonly selectCodes: Statement<[string], { code_hash: string; used_at: number | null }>;
  private readonly selectPasskeys: Statement<[string], PasskeyRow>;
  private readonly selectPasskey: Statement<[string], PasskeyRow>;
  private readonly selectHistory: Statement<[string, number], EventRow>;
  private readonly totpStep: Statement<[number, string, number]>;
  private readonly passkeyUse: Statement<[number, number, string, number]>;
  private readonly selectChallenge: Statement<[string, string, number], ChallengeRow>;
  private readonly deleteChallenge: Statement<[string, string, number], ChallengeRow>;
  private readonly deleteExpired: Statement<[number]>;

  constructor(db: Database) {
    this.selectTotp = db.prepare(
      'SELECT secret, enabled_at, last_used_step FROM totp_factors WHERE username = ?',
    );
    this.selectEnrolment = db.prepare('SELECT secret, created_at FROM totp_enrolments WHERE username = ?');
    this.selectCodes = db.prepare('SELECT code_hash, used_at FROM recovery_codes WHERE username = ?');
    this.selectPasskeys = db.prepare('SELECT * FROM passkeys WHERE username = ? ORDER BY created_at, rowid');
    this.selectPasskey = db.prepare('SELECT * FROM passkeys WHERE credential_id = ?');
    this.selectHistory = db.prepare(
      'SELECT username, kind, detail, at, address FROM account_events WHERE username = ? ORDER BY seq DESC LIMIT ?',
    );
    this.totpStep = db.prepare(
      'UPDATE totp_factors SET last_used_step = ? WHERE username = ? AND last_used_step < ?',
    );
    this.passkeyUse = db.prepare(
      'UPDATE passkeys SET counter = ?, last_used_at = ? WHERE credential_id = ? AND counter = ?',
    );
    this.selectChallenge = db.prepare(
      'SELECT * FROM auth_challenges WHERE id_hash = ? AND kind = ? AND expires_at > ?',
    );
    this.deleteChallenge = db.prepare(
      'DELETE FROM auth_challenges WHERE id_hash = ? AND kind = ? AND expires_at > ? RETURNING *',
    );
    this.deleteExpired = db.prepare('DELETE FROM auth_challenges WHERE expires_at <= ?');

    const insertEvents = prepareEventInsert(db);
    const markCodeUsed = db.prepare<[number, string, string]>(
      'UPDATE recovery_codes SET used_at = ? WHERE username = ? AND code_hash = ? AND used_at IS NULL',
    );
    this.recoveryUse = db.transaction((username: string, hash: string, event: AccountEvent) => {
      if (markCodeUsed.run(event.at.getTime(), username, hash).changes !== 1) return false;
      insertEvents([event]);
      return true;
    });

    const deleteOthers = db.prepare<[string, string | null]>(
      'DELETE FROM auth_challenges WHERE kind = ? AND username IS ?',
    );
    const insertChallenge = db.prepare<[string, string, string | null, string, number]>(
      'INSERT OR REPLACE INTO auth_challenges (id_hash, kind, username, data, expires_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.challengePut = db.transaction((c: Challenge, exclusive: boolean) => {
      if (exclusive) deleteOthers.run(c.kind, c.username);
      insertChallenge.run(c.idHash, c.kind, c.username, JSON.stringify(c.data), c.expiresAt.getTime());
    });

    this.applyWrite = this.prepareApply(db, insertEvents);
  }

  /** The one security write: every refusal is found before anything is changed, or rolls the transaction back. */
  private prepareApply(
    db: Database,
    insertEvents: (events: readonly AccountEvent[]) => void,
  ): Transaction<(change: SecurityChange, now: Date) => SecurityChangeOutcome> {
    const liveUser = db.prepare<[string], unknown>(
      'SELECT 1 FROM users WHERE username = ? AND deleted_at IS NULL',
    );
    const consume = db.prepare<[string, string, string, number]>(
      'DELETE FROM auth_challenges WHERE id_hash = ? AND kind = ? AND username = ? AND expires_at > ?',
    );
    const deleteTotp = db.prepare<[string]>('DELETE FROM totp_factors WHERE username = ?');
    const setTotp = db.prepare<[string, string, number, number]>(
      'INSERT OR REPLACE INTO totp_factors (username, secret, enabled_at, last_used_step) VALUES (?, ?, ?, ?)',
    );
    const deleteEnrolment = db.prepare<[string]>('DELETE FROM totp_enrolments WHERE username = ?');
    const setEnrolment = db.prepare<[string, string, number]>(
      'INSERT OR REPLACE INTO totp_enrolments (username, secret, created_at) VALUES (?, ?, ?)',
    );
    const deleteCodes = db.prepare<[string]>('DELETE FROM recovery_codes WHERE username = ?');
    const insertCode = db.prepare<[string, string]>(
      'INSERT INTO recovery_codes (username, code_hash, used_at) VALUES (?, ?, NULL)',
    );
    const deletePasskeys = db.prepare<[string]>('DELETE FROM passkeys WHERE username = ?');
    const deletePasskey = db.prepare<[string, string]>(
      'DELETE FROM passkeys WHERE credential_id = ? AND username = ?',
    );
    const insertPasskey = preparePasskeyInsert(db);
    const setHash = db.prepare<[string, string]>('UPDATE users SET password_hash = ? WHERE username = ?');
    const revoke = prepareRevocationWrite(db);

    const write = db.transaction((change: SecurityChange, now: Date): SecurityChangeOutcome => {
      const { username } = change;
      if (liveUser.get(username) === undefined) throw new Refused({ type: 'not_found' });
      if (change.consumes) {
        const { idHash, kind } = change.consumes;
        if (consume.run(idHash, kind, username, now.getTime()).changes !== 1)
          throw new Refused({ type: 'challenge_gone' });
      }
      if (
        change.removePasskey !== undefined &&
        deletePasskey.run(change.removePasskey, username).changes !== 1
      )
        throw new Refused({ type: 'not_found' });
      if (change.removeAllPasskeys) deletePasskeys.run(username);
      if (change.addPasskey && !insertPasskey(change.addPasskey))
        throw new Refused({ type: 'passkey_taken' });
      if (change.totp === null) deleteTotp.run(username);
      else if (change.totp)
        setTotp.run(username, change.totp.secret, change.totp.enabledAt.getTime(), change.totp.lastUsedStep);
      if (change.enrolment === null) deleteEnrolment.run(username);
      else if (change.enrolment)
        setEnrolment.run(username, change.enrolment.secret, change.enrolment.createdAt.getTime());
      if (change.recoveryCodeHashes !== undefined) {
        deleteCodes.run(username);
        for (const hash of change.recoveryCodeHashes) insertCode.run(username, hash);
      }
      if (change.passwordHash !== undefined) setHash.run(change.passwordHash, username);
      const revoked = revoke(change.revocations ?? [], now);
      insertEvents(change.events);
      return { type: 'applied', revoked };
    });
    return write;
  }

  async factors(username: Username): Promise<AccountFactors> {
    return storeCall(() => {
      const totp = this.selectTotp.get(username);
      const enrolment = this.selectEnrolment.get(username);
      return {
        totp: totp
          ? { secret: totp.secret, enabledAt: new Date(totp.enabled_at), lastUsedStep: totp.last_used_step }
          : null,
        enrolment: enrolment ? { secret: enrolment.secret, createdAt: new Date(enrolment.created_at) } : null,
        recoveryCodes: this.selectCodes.all(username).map((row) => ({
          hash: row.code_hash,
          usedAt: row.used_at === null ? null : new Date(row.used_at),
        })),
        passkeys: this.selectPasskeys.all(username).map(passkeyOf),
      };
    });
  }

  async findPasskey(credentialId: string): Promise<Passkey | null> {
    const row = storeCall(() => this.selectPasskey.get(credentialId));
    return row ? passkeyOf(row) : null;
  }

  async history(username: Username, limit: number): Promise<AccountEvent[]> {
    if (limit <= 0) return [];
    return storeCall(() => this.selectHistory.all(username, limit)).map(eventOf);
  }

  async apply(change: SecurityChange, now: Date): Promise<SecurityChangeOutcome> {
    try {
      return storeCall(() => this.applyWrite.immediate(change, now));
    } catch (error) {
      if (error instanceof Refused) return error.outcome;
      throw error;
    }
  }

  async useTotpStep(username: Username, step: number): Promise<boolean> {
    return storeCall(() => this.totpStep.run(step, username, step).changes === 1);
  }

  async useRecoveryCode(username: Username, hash: string, event: AccountEvent): Promise<boolean> {
    return storeCall(() => this.recoveryUse.immediate(username, hash, event));
  }

  async usePasskey(
    credentialId: string,
    previousCounter: number,
    counter: number,
    now: Date,
  ): Promise<boolean> {
    return storeCall(
      () => this.passkeyUse.run(counter, now.getTime(), credentialId, previousCounter).changes === 1,
    );
  }

  async putChallenge(challenge: Challenge, options: { readonly exclusive?: boolean } = {}): Promise<void> {
    storeCall(() => this.challengePut.immediate(challenge, options.exclusive === true));
  }

  async findChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    const row = storeCall(() => this.selectChallenge.get(idHash, kind, now.getTime()));
    return row ? challengeOf(row) : null;
  }

  async takeChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    const row = storeCall(() => this.deleteChallenge.get(idHash, kind, now.getTime()));
    return row ? challengeOf(row) : null;
  }

  async deleteExpiredChallenges(now: Date): Promise<number> {
    return storeCall(() => this.deleteExpired.run(now.getTime()).changes);
  }
}
