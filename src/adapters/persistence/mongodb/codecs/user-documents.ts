import type { User, UserProfile, Username } from '../../../../domain/user.js';
import {
  moveFromStored,
  profileFromStored,
  storedProfile,
  type StoredProfile,
} from '../../stored-profile.js';
import type { MongoCodec, OlderDocument } from '../mongo-codec.js';

/** A user, keyed by username; `seq` is its registration position, 1, 2, 3, … from the `users` counter. */
export interface UserDocument {
  _id: string;
  seq: number;
  passwordHash: string;
  publicKeyPem: string;
  privateKeyPem: string;
  createdAt: Date;
  /** Bumped by every attach, only so that concurrent attaches of one user conflict (see the attachments). */
  attachmentWrites?: number;
  /** Null while the account is live. */
  deletedAt: Date | null;
  /** Set while the account is disabled. */
  disabledAt: Date | null;
  /** What the person tells about themself, and where the account moved (`move`, absent: never). */
  profile: StoredProfile;
  /** Moved on by one with every profile change (its compare-and-set). */
  profileVersion: number;
}

/**
 * As stored: documents written before deletion, disabling and profiles existed lack those fields (live, enabled,
 * the empty profile at version 0).
 */
export type StoredUserDocument = OlderDocument<
  UserDocument,
  'deletedAt' | 'disabledAt' | 'profile' | 'profileVersion'
>;

/** Public pages read these fields only: no password hash, no private key leaves the store for them. */
export const PUBLIC_USER_FIELDS = {
  _id: 1,
  seq: 1,
  publicKeyPem: 1,
  createdAt: 1,
  deletedAt: 1,
  disabledAt: 1,
  profile: 1,
  profileVersion: 1,
} as const;

export type PublicUserDocument = Pick<StoredUserDocument, keyof typeof PUBLIC_USER_FIELDS>;

/** What anyone may see of an account, from the public fields of its document. */
export const userProfileOf = (doc: Omit<PublicUserDocument, 'seq'>): UserProfile => ({
  username: doc._id as Username,
  publicKeyPem: doc.publicKeyPem,
  createdAt: doc.createdAt,
  deletedAt: doc.deletedAt ?? null,
  disabledAt: doc.disabledAt ?? null,
  profile: profileFromStored(doc.profile),
  profileVersion: doc.profileVersion ?? 0,
  move: moveFromStored(doc.profile),
});

export const USER_DOCUMENTS: MongoCodec<
  User,
  Omit<UserDocument, 'seq' | 'attachmentWrites'>,
  Omit<StoredUserDocument, 'seq'>
> = {
  toDocument: (user) => ({
    _id: user.username,
    passwordHash: user.passwordHash,
    publicKeyPem: user.publicKeyPem,
    privateKeyPem: user.privateKeyPem,
    createdAt: user.createdAt,
    deletedAt: user.deletedAt,
    disabledAt: user.disabledAt,
    profile: storedProfile(user.profile, user.move),
    profileVersion: user.profileVersion,
  }),
  fromDocument: (doc) => ({
    ...userProfileOf(doc),
    passwordHash: doc.passwordHash,
    privateKeyPem: doc.privateKeyPem,
  }),
};
