// POST /auth/verify's input and answer body, shared by its Koa route and its hot path (README.md).
import type { z } from 'zod';
import type { L1ServerUrls } from '../shared/l1-server-urls.js';
import { methodsOf } from '../../../domain/sign-in-methods.js';
import { expiresAt, type TokenClaims } from '../../../domain/token.js';
import type { VerifyRequest } from '../shared/schemas.js';

/** What the use-case is asked: the token, and the caller's L1 server in its normalised form. */
export function verifyInput(input: z.output<typeof VerifyRequest>, l1Servers: L1ServerUrls) {
  return { token: input.token, l1Server: input.l1_server ? l1Servers.normalise(input.l1_server) : null };
}

/** The 200 answer (API.md §1). */
export const verifiedJson = (claims: TokenClaims) => ({
  valid: true,
  username: claims.username,
  l2_server: claims.l2_server,
  l1_server: claims.l1_server ?? null,
  expires_at: expiresAt(claims).toISOString(),
  amr: methodsOf(claims),
});
