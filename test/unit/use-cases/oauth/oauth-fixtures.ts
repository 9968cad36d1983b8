// "Sign in with L2" as an L1 server drives it, on the use-case kit: its PKCE verifier, the authorization request it
// sends the browser with, and the code the browser brings back.
import { createHash } from 'node:crypto';
import type { AuthenticatedToken } from '../../../../src/application/services/authenticate-token.js';
import type { AuthorizationRequest } from '../../../../src/domain/oauth.js';
import { l1, type Kit } from '../accounts/account-fixtures.js';

export const CLIENT = 'https://l1.example/studio';
export const REDIRECT_URI = `${CLIENT}/callback`;
/** An RFC 7636 verifier (43 unreserved characters). */
export const VERIFIER = 'v'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

/** The query of `GET /oauth/authorize` an L1 server sends its visitor with. */
export const authorizationQuery = (extra: Record<string, string> = {}): Record<string, string> => ({
  client_id: CLIENT,
  redirect_uri: REDIRECT_URI,
  response_type: 'code',
  code_challenge_method: 'S256',
  code_challenge: CHALLENGE,
  state: 'xyz',
  ...extra,
});

export async function reviewed(kit: Kit): Promise<AuthorizationRequest> {
  const request = await kit.useCases.reviewAuthorizationRequest.execute(authorizationQuery());
  if (!request.ok) throw new Error(request.error.type);
  return request.value;
}

/** `session` allows the L1 server: the code the browser carries back. */
export async function grantedCode(kit: Kit, session: AuthenticatedToken): Promise<string> {
  const granted = await kit.useCases.grantAuthorizationCode.execute({
    session,
    request: await reviewed(kit),
  });
  if (!granted.ok) throw new Error(granted.error.type);
  return new URL(granted.value.redirectTo).searchParams.get('code')!;
}

/** The L1 server's token request for `code`. */
export const tokenRequest = (
  code: string,
  extra: Partial<{ codeVerifier: string; redirectUri: string }> = {},
) => ({
  code,
  redirectUri: REDIRECT_URI,
  codeVerifier: VERIFIER,
  clientId: l1(CLIENT),
  ...extra,
});
