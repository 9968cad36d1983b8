// POST /auth/verify's input, shared by its Koa route and its hot path (README.md); its answer is verifiedJson
// (shared/presenters/token-presenters.ts).
import type { z } from 'zod';
import type { L1ServerUrls } from '../shared/l1-server-urls.js';
import type { VerifyRequest } from '../shared/schemas.js';

/** What the use-case is asked: the token, and the caller's L1 server in its normalised form. */
export function verifyInput(input: z.output<typeof VerifyRequest>, l1Servers: L1ServerUrls) {
  return { token: input.token, l1Server: input.l1_server ? l1Servers.normalise(input.l1_server) : null };
}
