// What protects an account besides its password, one codec per table (migration-account-security.ts).
import type {
  AccountEvent,
  AccountEventKind,
  Challenge,
  ChallengeKind,
  Passkey,
  TotpEnrolment,
} from '../../../../domain/account-security.js';
import type { Username } from '../../../../domain/user.js';
import type { RecoveryCodeRecord, TotpFactorRecord } from '../../stored-records.js';
import { dateOrNull, millisOrNull, sqliteTable } from '../sqlite-codec.js';

export const TOTP_FACTOR_ROWS = sqliteTable('totp_factors', {
  username: 'text',
  secret: 'text',
  enabled_at: 'integer',
  last_used_step: 'integer',
}).codec<TotpFactorRecord>({
  toRow: (t) => ({
    username: t.username,
    secret: t.secret,
    enabled_at: t.enabledAt.getTime(),
    last_used_step: t.lastUsedStep,
  }),
  fromRow: (row) => ({
    username: row.username as Username,
    secret: row.secret,
    enabledAt: new Date(row.enabled_at),
    lastUsedStep: row.last_used_step,
  }),
});

export const TOTP_ENROLMENT_ROWS = sqliteTable('totp_enrolments', {
  username: 'text',
  secret: 'text',
  created_at: 'integer',
}).codec<TotpEnrolment & { readonly username: Username }>({
  toRow: (e) => ({ username: e.username, secret: e.secret, created_at: e.createdAt.getTime() }),
  fromRow: (row) => ({
    username: row.username as Username,
    secret: row.secret,
    createdAt: new Date(row.created_at),
  }),
});

export const RECOVERY_CODE_ROWS = sqliteTable('recovery_codes', {
  username: 'text',
  code_hash: 'text',
  used_at: 'integer?',
}).codec<RecoveryCodeRecord>({
  toRow: (c) => ({ username: c.username, code_hash: c.hash, used_at: millisOrNull(c.usedAt) }),
  fromRow: (row) => ({
    username: row.username as Username,
    hash: row.code_hash,
    usedAt: dateOrNull(row.used_at),
  }),
});

export const PASSKEY_ROWS = sqliteTable('passkeys', {
  credential_id: 'text',
  username: 'text',
  user_handle: 'text',
  name: 'text',
  public_key: 'text',
  counter: 'integer',
  /** A JSON array of strings. */
  transports: 'text',
  /** 0 or 1. */
  backup_eligible: 'integer',
  created_at: 'integer',
  last_used_at: 'integer?',
}).codec<Passkey>({
  toRow: (p) => ({
    credential_id: p.credentialId,
    username: p.username,
    user_handle: p.userHandle,
    name: p.name,
    public_key: p.publicKey,
    counter: p.counter,
    transports: JSON.stringify(p.transports),
    backup_eligible: p.backupEligible ? 1 : 0,
    created_at: p.createdAt.getTime(),
    last_used_at: millisOrNull(p.lastUsedAt),
  }),
  fromRow: (row) => ({
    credentialId: row.credential_id,
    username: row.username as Username,
    userHandle: row.user_handle,
    name: row.name,
    publicKey: row.public_key,
    counter: row.counter,
    transports: JSON.parse(row.transports) as string[],
    backupEligible: row.backup_eligible === 1,
    createdAt: new Date(row.created_at),
    lastUsedAt: dateOrNull(row.last_used_at),
  }),
});

/** An entry of an account's history; `seq`, its place in the history, is the store's (AUTOINCREMENT). */
export const ACCOUNT_EVENT_ROWS = sqliteTable(
  'account_events',
  { username: 'text', kind: 'text', detail: 'text?', at: 'integer', address: 'text?' },
  ['seq'],
).codec<AccountEvent>({
  toRow: (e) => ({
    username: e.username,
    kind: e.kind,
    detail: e.detail,
    at: e.at.getTime(),
    address: e.address,
  }),
  fromRow: (row) => ({
    username: row.username as Username,
    kind: row.kind as AccountEventKind,
    detail: row.detail,
    at: new Date(row.at),
    address: row.address,
  }),
});

export const CHALLENGE_ROWS = sqliteTable('auth_challenges', {
  id_hash: 'text',
  kind: 'text',
  username: 'text?',
  data: 'text',
  expires_at: 'integer',
}).codec<Challenge>({
  toRow: (c) => ({
    id_hash: c.idHash,
    kind: c.kind,
    username: c.username,
    data: JSON.stringify(c.data),
    expires_at: c.expiresAt.getTime(),
  }),
  fromRow: (row) => ({
    idHash: row.id_hash,
    kind: row.kind as ChallengeKind,
    username: row.username as Username | null,
    data: JSON.parse(row.data) as Challenge['data'],
    expiresAt: new Date(row.expires_at),
  }),
});
