import { createHmac } from 'node:crypto';
import { TEST_PUBLIC_URL, TEST_SECRET } from './test-server.js';

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** Builds a JWT by hand — any header, any payload, any key — to attack the verifier with. */
export function forgeToken(
  payload: unknown,
  options: {
    header?: Record<string, unknown>;
    secret?: string;
    hmac?: 'sha256' | 'sha384' | 'sha512';
    signature?: string;
  } = {},
): string {
  const header = options.header ?? { alg: 'HS256', typ: 'JWT' };
  const signingInput = `${b64(header)}.${b64(payload)}`;
  const signature =
    options.signature ??
    createHmac(options.hmac ?? 'sha256', options.secret ?? TEST_SECRET)
      .update(signingInput)
      .digest('base64url');
  return `${signingInput}.${signature}`;
}

/** A well-formed claim set as this service issues it, valid for 30 days from `now`. */
export function validClaims(overrides: Record<string, unknown> = {}, now = Math.floor(Date.now() / 1000)) {
  return {
    sub: 'alice',
    username: 'alice',
    l2_server: TEST_PUBLIC_URL,
    iss: TEST_PUBLIC_URL,
    iat: now,
    exp: now + 30 * 24 * 3600,
    jti: `forged-${Math.random().toString(36).slice(2)}`,
    ...overrides,
  };
}
