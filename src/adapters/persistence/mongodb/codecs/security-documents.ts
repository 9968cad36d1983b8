// What protects an account besides its password, one codec per collection.
import type { ObjectId } from 'mongodb';
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
import type { MongoCodec } from '../mongo-codec.js';

/** An account's confirmed second factor, keyed by username. */
export interface TotpFactorDocument {
  _id: string;
  secret: string;
  enabledAt: Date;
  lastUsedStep: number;
}

export const TOTP_FACTOR_DOCUMENTS: MongoCodec<TotpFactorRecord, TotpFactorDocument> = {
  toDocument: (t) => ({
    _id: t.username,
    secret: t.secret,
    enabledAt: t.enabledAt,
    lastUsedStep: t.lastUsedStep,
  }),
  fromDocument: (doc) => ({
    username: doc._id as Username,
    secret: doc.secret,
    enabledAt: doc.enabledAt,
    lastUsedStep: doc.lastUsedStep,
  }),
};

/** A TOTP secret waiting for its first code, keyed by username. */
export interface TotpEnrolmentDocument {
  _id: string;
  secret: string;
  createdAt: Date;
}

export const TOTP_ENROLMENT_DOCUMENTS: MongoCodec<
  TotpEnrolment & { readonly username: Username },
  TotpEnrolmentDocument
> = {
  toDocument: (e) => ({ _id: e.username, secret: e.secret, createdAt: e.createdAt }),
  fromDocument: (doc) => ({
    username: doc._id as Username,
    secret: doc.secret,
    createdAt: doc.createdAt,
  }),
};

/** A recovery code, by the SHA-256 hex of its text; `_id` is "<username> <hash>". */
export interface RecoveryCodeDocument {
  _id: string;
  username: string;
  codeHash: string;
  usedAt: Date | null;
}

/** A recovery code's `_id`: the account and the hash (a username holds no space). */
export const recoveryCodeId = (username: string, hash: string): string => `${username} ${hash}`;

export const RECOVERY_CODE_DOCUMENTS: MongoCodec<RecoveryCodeRecord, RecoveryCodeDocument> = {
  toDocument: (c) => ({
    _id: recoveryCodeId(c.username, c.hash),
    username: c.username,
    codeHash: c.hash,
    usedAt: c.usedAt,
  }),
  fromDocument: (doc) => ({
    username: doc.username as Username,
    hash: doc.codeHash,
    usedAt: doc.usedAt,
  }),
};

/** A passkey, keyed by its credential id (base64url). */
export interface PasskeyDocument {
  _id: string;
  username: string;
  userHandle: string;
  name: string;
  publicKey: string;
  counter: number;
  transports: string[];
  backupEligible: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export const PASSKEY_DOCUMENTS: MongoCodec<Passkey, PasskeyDocument> = {
  toDocument: (p) => ({
    _id: p.credentialId,
    username: p.username,
    userHandle: p.userHandle,
    name: p.name,
    publicKey: p.publicKey,
    counter: p.counter,
    transports: [...p.transports],
    backupEligible: p.backupEligible,
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
  }),
  fromDocument: (doc) => ({
    credentialId: doc._id,
    username: doc.username as Username,
    userHandle: doc.userHandle,
    name: doc.name,
    publicKey: doc.publicKey,
    counter: doc.counter,
    transports: doc.transports,
    backupEligible: doc.backupEligible,
    createdAt: doc.createdAt,
    lastUsedAt: doc.lastUsedAt,
  }),
};

/** A single-use challenge, keyed by the SHA-256 hex of its value; the TTL index removes it once expired. */
export interface AuthChallengeDocument {
  _id: string;
  kind: string;
  username: string | null;
  data: Record<string, string | number | boolean>;
  expiresAt: Date;
}

export const CHALLENGE_DOCUMENTS: MongoCodec<Challenge, AuthChallengeDocument> = {
  toDocument: (c) => ({
    _id: c.idHash,
    kind: c.kind,
    username: c.username,
    data: { ...c.data },
    expiresAt: c.expiresAt,
  }),
  fromDocument: (doc) => ({
    idHash: doc._id,
    kind: doc.kind as ChallengeKind,
    username: doc.username as Username | null,
    data: doc.data,
    expiresAt: doc.expiresAt,
  }),
};

/** An entry of an account's history, in the order of its ObjectId. */
export interface AccountEventDocument {
  _id?: ObjectId;
  username: string;
  kind: string;
  detail: string | null;
  at: Date;
  address: string | null;
}

export const ACCOUNT_EVENT_DOCUMENTS: MongoCodec<AccountEvent, AccountEventDocument> = {
  toDocument: (e) => ({
    username: e.username,
    kind: e.kind,
    detail: e.detail,
    at: e.at,
    address: e.address,
  }),
  fromDocument: (doc) => ({
    username: doc.username as Username,
    kind: doc.kind as AccountEventKind,
    detail: doc.detail,
    at: doc.at,
    address: doc.address,
  }),
};
