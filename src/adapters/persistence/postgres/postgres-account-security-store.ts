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
import {
  assignments,
  columnArrays,
  insertManySql,
  insertSql,
  type Columns,
  type PostgresCodec,
  type RowOf,
} from './postgres-codec.js';
import type { PostgresDatabase, Refuse } from './postgres-database.js';
import { writeRevocations } from './postgres-revocation-store.js';
import { named, type Queryable } from './postgres-sql.js';

type Row<C extends { readonly columns: Columns }> = RowOf<C['columns']>;

const select = (codec: { list: string; table: string }, where: string) =>
  `SELECT ${codec.list} FROM ${codec.table} WHERE ${where}`;

const INSERT_EVENTS = named<Record<string, string>>(insertManySql(ACCOUNT_EVENT_ROWS));
/** An upsert replacing every column but the key: SQLite's INSERT OR REPLACE. */
function replacing<C extends Columns>(codec: PostgresCodec<unknown, C>, key: keyof C & string) {
  return named<RowOf<C>>(
    insertSql(codec, `ON CONFLICT (${key}) DO UPDATE SET ${assignments(codec, [key], 'excluded.')}`),
  );
}
const SET_TOTP = replacing(TOTP_FACTOR_ROWS, 'username');
const SET_ENROLMENT = replacing(TOTP_ENROLMENT_ROWS, 'username');
const PUT_CHALLENGE = replacing(CHALLENGE_ROWS, 'id_hash');
const INSERT_CODES = named<Record<string, string>>(insertManySql(RECOVERY_CODE_ROWS));
/** Nothing when the credential id is taken (by anyone). */
const INSERT_PASSKEY = named<Row<typeof PASSKEY_ROWS>>(
  insertSql(PASSKEY_ROWS, 'ON CONFLICT (credential_id) DO NOTHING'),
);

async function insertEvents(tx: Queryable, events: readonly AccountEvent[]): Promise<void> {
  if (events.length > 0)
    await INSERT_EVENTS.run(tx, columnArrays(ACCOUNT_EVENT_ROWS, events.map(ACCOUNT_EVENT_ROWS.toRow)));
}

/** A record of one account's table without the account's name: what the account's factors list. */
const withoutUsername = <T extends { username: Username }>({
  username: _,
  ...rest
}: T): Omit<T, 'username'> => rest;

export class PostgresAccountSecurityStore implements AccountSecurityStore {
  constructor(private readonly db: PostgresDatabase) {}

  async factors(username: Username): Promise<AccountFactors> {
    const [totp] = await this.db.query<Row<typeof TOTP_FACTOR_ROWS>>(
      select(TOTP_FACTOR_ROWS, 'username = $1'),
      [username],
    );
    const [enrolment] = await this.db.query<Row<typeof TOTP_ENROLMENT_ROWS>>(
      select(TOTP_ENROLMENT_ROWS, 'username = $1'),
      [username],
    );
    const codes = await this.db.query<Row<typeof RECOVERY_CODE_ROWS>>(
      select(RECOVERY_CODE_ROWS, 'username = $1 ORDER BY code_hash'),
      [username],
    );
    const passkeys = await this.db.query<Row<typeof PASSKEY_ROWS>>(
      select(PASSKEY_ROWS, 'username = $1 ORDER BY created_at, seq'),
      [username],
    );
    return {
      totp: totp ? withoutUsername(TOTP_FACTOR_ROWS.fromRow(totp)) : null,
      enrolment: enrolment ? withoutUsername(TOTP_ENROLMENT_ROWS.fromRow(enrolment)) : null,
      recoveryCodes: codes.map((row) => withoutUsername(RECOVERY_CODE_ROWS.fromRow(row))),
      passkeys: passkeys.map((row) => PASSKEY_ROWS.fromRow(row)),
    };
  }

  async findPasskey(credentialId: string): Promise<Passkey | null> {
    const [row] = await this.db.query<Row<typeof PASSKEY_ROWS>>(select(PASSKEY_ROWS, 'credential_id = $1'), [
      credentialId,
    ]);
    return row ? PASSKEY_ROWS.fromRow(row) : null;
  }

  async history(username: Username, limit: number): Promise<AccountEvent[]> {
    if (limit <= 0) return [];
    const rows = await this.db.query<Row<typeof ACCOUNT_EVENT_ROWS>>(
      select(ACCOUNT_EVENT_ROWS, 'username = $1 ORDER BY seq DESC LIMIT $2'),
      [username, limit],
    );
    return rows.map((row) => ACCOUNT_EVENT_ROWS.fromRow(row));
  }

  /** The one security write: every refusal rolls the transaction back, whatever it had written. */
  async apply(change: SecurityChange, now: Date): Promise<SecurityChangeOutcome> {
    return this.db.transaction<SecurityChangeOutcome>((tx, refuse) => applyIn(tx, change, now, refuse));
  }

  async useTotpStep(username: Username, step: number): Promise<boolean> {
    const { count } = await this.db.query(
      'UPDATE totp_factors SET last_used_step = $1 WHERE username = $2 AND last_used_step < $1',
      [step, username],
    );
    return count === 1;
  }

  async useRecoveryCode(username: Username, hash: string, event: AccountEvent): Promise<boolean> {
    return this.db.transaction<boolean>(async (tx, refuse) => {
      const { count } = await tx.query(
        'UPDATE recovery_codes SET used_at = $1 WHERE username = $2 AND code_hash = $3 AND used_at IS NULL',
        [event.at, username, hash],
      );
      if (count !== 1) return refuse(false);
      await insertEvents(tx, [event]);
      return true;
    });
  }

  async usePasskey(
    credentialId: string,
    previousCounter: number,
    counter: number,
    now: Date,
  ): Promise<boolean> {
    const { count } = await this.db.query(
      'UPDATE passkeys SET counter = $1, last_used_at = $2 WHERE credential_id = $3 AND counter = $4',
      [counter, now, credentialId, previousCounter],
    );
    return count === 1;
  }

  async putChallenge(challenge: Challenge, options: { readonly exclusive?: boolean } = {}): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (options.exclusive)
        await tx.query('DELETE FROM auth_challenges WHERE kind = $1 AND username IS NOT DISTINCT FROM $2', [
          challenge.kind,
          challenge.username,
        ]);
      await PUT_CHALLENGE.run(tx, CHALLENGE_ROWS.toRow(challenge));
    });
  }

  async findChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    const [row] = await this.db.query<Row<typeof CHALLENGE_ROWS>>(
      select(CHALLENGE_ROWS, 'id_hash = $1 AND kind = $2 AND expires_at > $3'),
      [idHash, kind, now],
    );
    return row ? CHALLENGE_ROWS.fromRow(row) : null;
  }

  async takeChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    const [row] = await this.db.query<Row<typeof CHALLENGE_ROWS>>(
      `DELETE FROM auth_challenges WHERE id_hash = $1 AND kind = $2 AND expires_at > $3
       RETURNING ${CHALLENGE_ROWS.list}`,
      [idHash, kind, now],
    );
    return row ? CHALLENGE_ROWS.fromRow(row) : null;
  }

  async deleteExpiredChallenges(now: Date): Promise<number> {
    return (await this.db.query('DELETE FROM auth_challenges WHERE expires_at <= $1', [now])).count;
  }
}

/** The security write inside its transaction; `refuse` rolls back whatever was written before the refusal. */
async function applyIn(
  tx: Queryable,
  change: SecurityChange,
  now: Date,
  refuse: Refuse<SecurityChangeOutcome>,
): Promise<SecurityChangeOutcome> {
  const { username } = change;
  // The account's row locked: a deletion waits for this write, or this write finds the account gone.
  const live = await tx.query('SELECT 1 FROM users WHERE username = $1 AND deleted_at IS NULL FOR UPDATE', [
    username,
  ]);
  if (live.length === 0) return refuse({ type: 'not_found' });
  if (change.consumes) {
    const { idHash, kind } = change.consumes;
    const { count } = await tx.query(
      'DELETE FROM auth_challenges WHERE id_hash = $1 AND kind = $2 AND username = $3 AND expires_at > $4',
      [idHash, kind, username, now],
    );
    if (count !== 1) return refuse({ type: 'challenge_gone' });
  }
  if (change.removePasskey !== undefined) {
    const { count } = await tx.query('DELETE FROM passkeys WHERE credential_id = $1 AND username = $2', [
      change.removePasskey,
      username,
    ]);
    if (count !== 1) return refuse({ type: 'not_found' });
  }
  if (change.removeAllPasskeys) await tx.query('DELETE FROM passkeys WHERE username = $1', [username]);
  if (change.addPasskey && (await INSERT_PASSKEY.run(tx, PASSKEY_ROWS.toRow(change.addPasskey))).count !== 1)
    return refuse({ type: 'passkey_taken' });
  if (change.totp === null) await tx.query('DELETE FROM totp_factors WHERE username = $1', [username]);
  else if (change.totp) await SET_TOTP.run(tx, TOTP_FACTOR_ROWS.toRow({ ...change.totp, username }));
  if (change.enrolment === null)
    await tx.query('DELETE FROM totp_enrolments WHERE username = $1', [username]);
  else if (change.enrolment)
    await SET_ENROLMENT.run(tx, TOTP_ENROLMENT_ROWS.toRow({ ...change.enrolment, username }));
  if (change.recoveryCodeHashes !== undefined) {
    await tx.query('DELETE FROM recovery_codes WHERE username = $1', [username]);
    const rows = change.recoveryCodeHashes.map((hash) =>
      RECOVERY_CODE_ROWS.toRow({ username, hash, usedAt: null }),
    );
    if (rows.length > 0) await INSERT_CODES.run(tx, columnArrays(RECOVERY_CODE_ROWS, rows));
  }
  if (change.passwordHash !== undefined)
    await tx.query('UPDATE users SET password_hash = $1 WHERE username = $2', [
      change.passwordHash,
      username,
    ]);
  const revoked = await writeRevocations(tx, change.revocations ?? [], now);
  await insertEvents(tx, change.events);
  return { type: 'applied', revoked };
}
