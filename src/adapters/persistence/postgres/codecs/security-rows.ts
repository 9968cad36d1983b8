// What protects an account besides its password, one codec per table (postgres-migrations.ts, migration 5).
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
import { postgresTable } from '../postgres-codec.js';

export const TOTP_FACTOR_ROWS = postgresTable('totp_factors', {
  username: 'text',
  secret: 'text',
  enabled_at: 'timestamptz',
  last_used_step: 'bigint',
}).codec<TotpFactorRecord>({
  toRow: (t) => ({
    username: t.username,
    secret: t.secret,
    enabled_at: t.enabledAt,
    last_used_step: t.lastUsedStep,
  }),
  fromRow: (row) => ({
    username: row.username as Username,
    secret: row.secret,
    enabledAt: row.enabled_at,
    lastUsedStep: row.last_used_step,
  }),
});

export const TOTP_ENROLMENT_ROWS = postgresTable('totp_enrolments', {
  username: 'text',
  secret: 'text',
  created_at: 'timestamptz',
}).codec<TotpEnrolment & { readonly username: Username }>({
  toRow: (e) => ({ username: e.username, secret: e.secret, created_at: e.createdAt }),
  fromRow: (row) => ({ username: row.username as Username, secret: row.secret, createdAt: row.created_at }),
});

export const RECOVERY_CODE_ROWS = postgresTable('recovery_codes', {
  username: 'text',
  code_hash: 'text',
  used_at: 'timestamptz?',
}).codec<RecoveryCodeRecord>({
  toRow: (c) => ({ username: c.username, code_hash: c.hash, used_at: c.usedAt }),
  fromRow: (row) => ({ username: row.username as Username, hash: row.code_hash, usedAt: row.used_at }),
});

/** A WebAuthn credential; `seq` (the store's) keeps the order they were added in. */
export const PASSKEY_ROWS = postgresTable(
  'passkeys',
  {
    credential_id: 'text',
    username: 'text',
    user_handle: 'text',
    name: 'text',
    public_key: 'text',
    counter: 'bigint',
    /** A JSON array of strings. */
    transports: 'text',
    backup_eligible: 'boolean',
    created_at: 'timestamptz',
    last_used_at: 'timestamptz?',
  },
  ['seq'],
).codec<Passkey>({
  toRow: (p) => ({
    credential_id: p.credentialId,
    username: p.username,
    user_handle: p.userHandle,
    name: p.name,
    public_key: p.publicKey,
    counter: p.counter,
    transports: JSON.stringify(p.transports),
    backup_eligible: p.backupEligible,
    created_at: p.createdAt,
    last_used_at: p.lastUsedAt,
  }),
  fromRow: (row) => ({
    credentialId: row.credential_id,
    username: row.username as Username,
    userHandle: row.user_handle,
    name: row.name,
    publicKey: row.public_key,
    counter: row.counter,
    transports: JSON.parse(row.transports) as string[],
    backupEligible: row.backup_eligible,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  }),
});

/** An entry of an account's history; `seq`, its place in the history, is the store's (an identity column). */
export const ACCOUNT_EVENT_ROWS = postgresTable(
  'account_events',
  { username: 'text', kind: 'text', detail: 'text?', at: 'timestamptz', address: 'text?' },
  ['seq'],
).codec<AccountEvent>({
  toRow: (e) => ({ username: e.username, kind: e.kind, detail: e.detail, at: e.at, address: e.address }),
  fromRow: (row) => ({
    username: row.username as Username,
    kind: row.kind as AccountEventKind,
    detail: row.detail,
    at: row.at,
    address: row.address,
  }),
});

export const CHALLENGE_ROWS = postgresTable('auth_challenges', {
  id_hash: 'text',
  kind: 'text',
  username: 'text?',
  data: 'text',
  expires_at: 'timestamptz',
}).codec<Challenge>({
  toRow: (c) => ({
    id_hash: c.idHash,
    kind: c.kind,
    username: c.username,
    data: JSON.stringify(c.data),
    expires_at: c.expiresAt,
  }),
  fromRow: (row) => ({
    idHash: row.id_hash,
    kind: row.kind as ChallengeKind,
    username: row.username as Username | null,
    data: JSON.parse(row.data) as Challenge['data'],
    expiresAt: row.expires_at,
  }),
});
