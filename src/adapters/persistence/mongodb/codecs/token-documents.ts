import type { ObjectId } from 'mongodb';
import type { L1ServerUrl } from '../../../../domain/l1-server.js';
import type { IssuedToken } from '../../../../domain/revocation.js';
import type { Username } from '../../../../domain/user.js';
import type { AttachmentRecord, RevokedToken } from '../../stored-records.js';
import type { MongoCodec } from '../mongo-codec.js';

/** An issued token, keyed by the SHA-256 hex of the token (never the token). */
export interface IssuedTokenDocument {
  _id: string;
  jti: string;
  username: string;
  sessionJti: string | null;
  l1Server: string | null;
  issuedAt: Date;
  expiresAt: Date;
  /** Only for a token of a document client (API.md §2.5): where its revocation is told. */
  documentClient?: { backchannelLogoutUri: string | null };
}

export const ISSUED_TOKEN_DOCUMENTS: MongoCodec<IssuedToken, IssuedTokenDocument> = {
  toDocument: (token) => ({
    _id: token.tokenHash,
    jti: token.jti,
    username: token.username,
    sessionJti: token.sessionJti,
    l1Server: token.l1Server,
    issuedAt: token.issuedAt,
    expiresAt: token.expiresAt,
    ...(token.documentClient ? { documentClient: { ...token.documentClient } } : {}),
  }),
  fromDocument: (doc) => ({
    tokenHash: doc._id,
    jti: doc.jti,
    username: doc.username as Username,
    sessionJti: doc.sessionJti,
    l1Server: doc.l1Server as L1ServerUrl | null,
    issuedAt: doc.issuedAt,
    expiresAt: doc.expiresAt,
    ...(doc.documentClient
      ? { documentClient: { backchannelLogoutUri: doc.documentClient.backchannelLogoutUri } }
      : {}),
  }),
};

/** A revoked token's hash; the TTL index removes it some time after `expiresAt`. */
export interface RevocationDocument {
  _id: string;
  username: string;
  expiresAt: Date;
  revokedAt: Date;
}

export const REVOCATION_DOCUMENTS: MongoCodec<RevokedToken, RevocationDocument> = {
  toDocument: (r) => ({
    _id: r.tokenHash,
    username: r.username,
    expiresAt: r.expiresAt,
    revokedAt: r.revokedAt,
  }),
  fromDocument: (doc) => ({
    tokenHash: doc._id,
    username: doc.username as Username,
    expiresAt: doc.expiresAt,
    revokedAt: doc.revokedAt,
  }),
};

/** An L1 server a user attached: one document per user and server (a unique index on both). */
export interface AttachmentDocument {
  _id?: ObjectId;
  username: string;
  l1Server: string;
  attachedAt: Date;
}

export const ATTACHMENT_DOCUMENTS: MongoCodec<AttachmentRecord, AttachmentDocument> = {
  toDocument: (a) => ({ username: a.username, l1Server: a.l1Server, attachedAt: a.attachedAt }),
  fromDocument: (doc) => ({
    username: doc.username as Username,
    l1Server: doc.l1Server as L1ServerUrl,
    attachedAt: doc.attachedAt,
  }),
};
