import type { User, UserProfile, Username } from '../../../../domain/user.js';
import { profileAndMoveFromJson, profileJson } from '../../stored-profile.js';
import { columnsOf, postgresTable, type RowOf } from '../postgres-codec.js';

const COLUMNS = {
  username: 'text',
  password_hash: 'text',
  public_key_pem: 'text',
  private_key_pem: 'text',
  created_at: 'timestamptz',
  deleted_at: 'timestamptz?',
  disabled_at: 'timestamptz?',
  /** JSON text (stored-profile.ts); NULL for the empty profile. */
  profile: 'text?',
  profile_version: 'integer',
} as const;

/** The columns no public page reads: no password hash, no private key leaves the store for them. */
const SECRET_COLUMNS = ['password_hash', 'private_key_pem'] as const;

type PublicUserRow = Omit<RowOf<typeof COLUMNS>, (typeof SECRET_COLUMNS)[number]>;

/** What anyone may see of an account, from the public columns of its row. */
export const userProfileOf = (row: PublicUserRow): UserProfile => ({
  username: row.username as Username,
  publicKeyPem: row.public_key_pem,
  createdAt: row.created_at,
  deletedAt: row.deleted_at,
  disabledAt: row.disabled_at,
  ...profileAndMoveFromJson(row.profile),
  profileVersion: row.profile_version,
});

/** A user as one row of `users`; `seq`, its registration position, is the store's (an identity column). */
export const USER_ROWS = postgresTable('users', COLUMNS, ['seq']).codec<User>({
  toRow: (user) => ({
    username: user.username,
    password_hash: user.passwordHash,
    public_key_pem: user.publicKeyPem,
    private_key_pem: user.privateKeyPem,
    created_at: user.createdAt,
    deleted_at: user.deletedAt,
    disabled_at: user.disabledAt,
    profile: profileJson(user.profile, user.move),
    profile_version: user.profileVersion,
  }),
  fromRow: (row) => ({
    ...userProfileOf(row),
    passwordHash: row.password_hash,
    privateKeyPem: row.private_key_pem,
  }),
});

/** The public columns, comma-separated: what lists and public pages select. */
export const PUBLIC_USER_LIST = columnsOf(USER_ROWS)
  .filter((column) => !(SECRET_COLUMNS as readonly string[]).includes(column))
  .join(', ');
