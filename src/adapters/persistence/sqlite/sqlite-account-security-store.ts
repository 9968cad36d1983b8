import type { Database, Statement, Transaction } from 'better-sqlite3';
import type {
  AccountSecurityStore,
  SecurityChange,
  SecurityChangeOutcome,
} from '../../../application/ports/account-security-store.js';
import type {
  AccountEvent,
  AccountFactors,
  Challenge,
  ChallengeKind,
  Passkey,
} from '../../../domain/account-security.js';
import type { Username } from '../../../domain/user.js';
import {
  ACCOUNT_EVENT_ROWS,
  CHALLENGE_ROWS,
  PASSKEY_ROWS,
  RECOVERY_CODE_ROWS,
  TOTP_ENROLMENT_ROWS,
  TOTP_FACTOR_ROWS,
} from './codecs/security-rows.js';
import { insertSql, type Columns, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { prepareRevocationWrite } from './sqlite-revocation-store.js';

type Row<C extends { readonly columns: Columns }> = RowOf<C['columns']>;

/** Prepares the insert of history entries (to run inside a transaction). */
function prepareEventInsert(db: Database): (events: readonly AccountEvent[]) => void {
  const insert = db.prepare<[Row<typeof ACCOUNT_EVENT_ROWS>]>(insertSql(ACCOUNT_EVENT_ROWS));
  return (events) => {
    for (const event of events) insert.run(ACCOUNT_EVENT_ROWS.toRow(event));
  };
}

/** A record of one account's table without the account's name: what the account's factors list. */
const withoutUsername = <T extends { username: Username }>({
  username: _,
  ...rest
}: T): Omit<T, 'username'> => rest;

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
  private readonly selectTotp: Statement<[string], Row<typeof TOTP_FACTOR_ROWS>>;
  private readonly selectEnrolment: Statement<[string], Row<typeof TOTP_ENROLMENT_ROWS>>;
  private readonly selectCodes: Statement<[string], Row<typeof RECOVERY_CODE_ROWS>>;
  private readonly selectPasskeys: Statement<[string], Row<typeof PASSKEY_ROWS>>;
  private readonly selectPasskey: Statement<[string], Row<typeof PASSKEY_ROWS>>;
  private readonly selectHistory: Statement<[string, number], Row<typeof ACCOUNT_EVENT_ROWS>>;
  private readonly totpStep: Statement<[number, string, number]>;
  private readonly passkeyUse: Statement<[number, number, string, number]>;
  private readonly selectChallenge: Statement<[string, string, number], Row<typeof CHALLENGE_ROWS>>;
  private readonly deleteChallenge: Statement<[string, string, number], Row<typeof CHALLENGE_ROWS>>;
  private readonly deleteExpired: Statement<[number]>;

  constructor(db: Database) {
    const select = (codec: { list: string; table: string }, where: string) =>
      `SELECT ${codec.list} FROM ${codec.table} WHERE ${where}`;
    this.selectTotp = db.prepare(select(TOTP_FACTOR_ROWS, 'username = ?'));
    this.selectEnrolment = db.prepare(select(TOTP_ENROLMENT_ROWS, 'username = ?'));
    this.selectCodes = db.prepare(select(RECOVERY_CODE_ROWS, 'username = ?'));
    this.selectPasskeys = db.prepare(select(PASSKEY_ROWS, 'username = ? ORDER BY created_at, rowid'));
    this.selectPasskey = db.prepare(select(PASSKEY_ROWS, 'credential_id = ?'));
    this.selectHistory = db.prepare(select(ACCOUNT_EVENT_ROWS, 'username = ? ORDER BY seq DESC LIMIT ?'));
    this.totpStep = db.prepare(
      'UPDATE totp_factors SET last_used_step = ? WHERE username = ? AND last_used_step < ?',
    );
    this.passkeyUse = db.prepare(
      'UPDATE passkeys SET counter = ?, last_used_at = ? WHERE credential_id = ? AND counter = ?',
    );
    this.selectChallenge = db.prepare(select(CHALLENGE_ROWS, 'id_hash = ? AND kind = ? AND expires_at > ?'));
    this.deleteChallenge = db.prepare(
      `DELETE FROM auth_challenges WHERE id_hash = ? AND kind = ? AND expires_at > ? RETURNING ${CHALLENGE_ROWS.list}`,
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
    const insertChallenge = db.prepare<[Row<typeof CHALLENGE_ROWS>]>(
      insertSql(CHALLENGE_ROWS, '', 'INSERT OR REPLACE'),
    );
    this.challengePut = db.transaction((c: Challenge, exclusive: boolean) => {
      if (exclusive) deleteOthers.run(c.kind, c.username);
      insertChallenge.run(CHALLENGE_ROWS.toRow(c));
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
    const setTotp = db.prepare<[Row<typeof TOTP_FACTOR_ROWS>]>(
      insertSql(TOTP_FACTOR_ROWS, '', 'INSERT OR REPLACE'),
    );
    const deleteEnrolment = db.prepare<[string]>('DELETE FROM totp_enrolments WHERE username = ?');
    const setEnrolment = db.prepare<[Row<typeof TOTP_ENROLMENT_ROWS>]>(
      insertSql(TOTP_ENROLMENT_ROWS, '', 'INSERT OR REPLACE'),
    );
    const deleteCodes = db.prepare<[string]>('DELETE FROM recovery_codes WHERE username = ?');
    const insertCode = db.prepare<[Row<typeof RECOVERY_CODE_ROWS>]>(insertSql(RECOVERY_CODE_ROWS));
    const deletePasskeys = db.prepare<[string]>('DELETE FROM passkeys WHERE username = ?');
    const deletePasskey = db.prepare<[string, string]>(
      'DELETE FROM passkeys WHERE credential_id = ? AND username = ?',
    );
    // False when the credential id is taken.
    const passkeyInsert = db.prepare<[Row<typeof PASSKEY_ROWS>]>(
      insertSql(PASSKEY_ROWS, 'ON CONFLICT (credential_id) DO NOTHING'),
    );
    const insertPasskey = (passkey: Passkey) => passkeyInsert.run(PASSKEY_ROWS.toRow(passkey)).changes === 1;
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
      else if (change.totp) setTotp.run(TOTP_FACTOR_ROWS.toRow({ ...change.totp, username }));
      if (change.enrolment === null) deleteEnrolment.run(username);
      else if (change.enrolment)
        setEnrolment.run(TOTP_ENROLMENT_ROWS.toRow({ ...change.enrolment, username }));
      if (change.recoveryCodeHashes !== undefined) {
        deleteCodes.run(username);
        for (const hash of change.recoveryCodeHashes)
          insertCode.run(RECOVERY_CODE_ROWS.toRow({ username, hash, usedAt: null }));
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
        totp: totp ? withoutUsername(TOTP_FACTOR_ROWS.fromRow(totp)) : null,
        enrolment: enrolment ? withoutUsername(TOTP_ENROLMENT_ROWS.fromRow(enrolment)) : null,
        recoveryCodes: this.selectCodes
          .all(username)
          .map((row) => withoutUsername(RECOVERY_CODE_ROWS.fromRow(row))),
        passkeys: this.selectPasskeys.all(username).map((row) => PASSKEY_ROWS.fromRow(row)),
      };
    });
  }

  async findPasskey(credentialId: string): Promise<Passkey | null> {
    const row = storeCall(() => this.selectPasskey.get(credentialId));
    return row ? PASSKEY_ROWS.fromRow(row) : null;
  }

  async history(username: Username, limit: number): Promise<AccountEvent[]> {
    if (limit <= 0) return [];
    return storeCall(() => this.selectHistory.all(username, limit)).map((row) =>
      ACCOUNT_EVENT_ROWS.fromRow(row),
    );
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
    return row ? CHALLENGE_ROWS.fromRow(row) : null;
  }

  async takeChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    const row = storeCall(() => this.deleteChallenge.get(idHash, kind, now.getTime()));
    return row ? CHALLENGE_ROWS.fromRow(row) : null;
  }

  async deleteExpiredChallenges(now: Date): Promise<number> {
    return storeCall(() => this.deleteExpired.run(now.getTime()).changes);
  }
}
