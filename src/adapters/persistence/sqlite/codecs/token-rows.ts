import type { L1ServerUrl } from '../../../../domain/l1-server.js';
import type { IssuedToken } from '../../../../domain/revocation.js';
import type { Username } from '../../../../domain/user.js';
import {
  clientLogoutColumn,
  documentClientOf,
  type AttachmentRecord,
  type RevokedToken,
} from '../../stored-records.js';
import { sqliteTable } from '../sqlite-codec.js';

/** A token issued, by the SHA-256 hex of the token (never the token): one row of `issued_tokens`. */
export const ISSUED_TOKEN_ROWS = sqliteTable('issued_tokens', {
  token_hash: 'text',
  jti: 'text',
  username: 'text',
  session_jti: 'text?',
  l1_server: 'text?',
  client_logout: 'text?',
  issued_at: 'integer',
  expires_at: 'integer',
}).codec<IssuedToken>({
  toRow: (token) => ({
    token_hash: token.tokenHash,
    jti: token.jti,
    username: token.username,
    session_jti: token.sessionJti,
    l1_server: token.l1Server,
    client_logout: clientLogoutColumn(token),
    issued_at: token.issuedAt.getTime(),
    expires_at: token.expiresAt.getTime(),
  }),
  fromRow: (row) => ({
    tokenHash: row.token_hash,
    jti: row.jti,
    username: row.username as Username,
    sessionJti: row.session_jti,
    l1Server: row.l1_server as L1ServerUrl | null,
    issuedAt: new Date(row.issued_at),
    expiresAt: new Date(row.expires_at),
    ...documentClientOf(row.client_logout),
  }),
});

/** A revoked token's hash: one row of `revocations`. */
export const REVOCATION_ROWS = sqliteTable('revocations', {
  token_hash: 'text',
  username: 'text',
  expires_at: 'integer',
  revoked_at: 'integer',
}).codec<RevokedToken>({
  toRow: (r) => ({
    token_hash: r.tokenHash,
    username: r.username,
    expires_at: r.expiresAt.getTime(),
    revoked_at: r.revokedAt.getTime(),
  }),
  fromRow: (row) => ({
    tokenHash: row.token_hash,
    username: row.username as Username,
    expiresAt: new Date(row.expires_at),
    revokedAt: new Date(row.revoked_at),
  }),
});

/** An L1 server a user attached: one row of `renderer_attachments`. */
export const ATTACHMENT_ROWS = sqliteTable('renderer_attachments', {
  username: 'text',
  l1_server: 'text',
  attached_at: 'integer',
}).codec<AttachmentRecord>({
  toRow: (a) => ({ username: a.username, l1_server: a.l1Server, attached_at: a.attachedAt.getTime() }),
  fromRow: (row) => ({
    username: row.username as Username,
    l1Server: row.l1_server as L1ServerUrl,
    attachedAt: new Date(row.attached_at),
  }),
});
