import { createHash } from 'node:crypto';
import { isObject } from './http.js';

/** A `token_hash`: the SHA-256 hex of a token. */
export const TOKEN_HASH = /^[0-9a-f]{64}$/;
const MAX_TOKEN_LENGTH = 4096;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** SHA-256 hex of a token string: the `token_hash` of L2's notices. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The token of an `Authorization: Bearer <token>` header, or `undefined`. */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}

/** Whether a value could be a token L2 issued (a compact JWT of sane length): anything else is refused unasked. */
export function jwtShaped(token: unknown): token is string {
  return typeof token === 'string' && token.length <= MAX_TOKEN_LENGTH && JWT_SHAPE.test(token);
}

/** The `exp` a token claims, in epoch milliseconds — read without verifying, only to bound a negative cache entry. */
export function claimedExpiry(token: string): number | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const exp = isObject(payload) ? payload.exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
