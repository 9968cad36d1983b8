// The OAuth area: "Sign in with L2" (API.md §2.3) — the request reviewed, the code granted and exchanged — and token
// introspection (RFC 7662), which answers exactly as verification does (the registered VerifyToken).
import type { AccountUseCases } from '../accounts/account-use-cases.js';
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { DecideAuthorizationPrompt } from './decide-authorization-prompt.js';
import { AuthenticateClient } from './authenticate-client.js';
import { ExchangeAuthorizationCode } from './exchange-authorization-code.js';
import { GrantAuthorizationCode } from './grant-authorization-code.js';
import { IntrospectToken } from './introspect-token.js';
import { LogOutOfClient } from './log-out-of-client.js';
import { ReadUserInfo } from './read-user-info.js';
import { ReviewAuthorizationRequest } from './review-authorization-request.js';
import { ReviewLogoutRequest } from './review-logout-request.js';
import { RevokeClientToken } from './revoke-client-token.js';

export const OAUTH_USE_CASES = {
  reviewAuthorizationRequest: (p) =>
    new ReviewAuthorizationRequest(p.destinations, p.urls.base, p.clientRegistry),
  grantAuthorizationCode: (p) =>
    new GrantAuthorizationCode(p.scopedTokenGrant, p.oneTimeCodes, p.store.authorizationCodes, p.clock),
  exchangeAuthorizationCode: (p) =>
    new ExchangeAuthorizationCode(
      p.store.authorizationCodes,
      p.oneTimeCodes,
      p.tokenIssuer,
      p.scopedTokenGrant,
      p.authenticateToken,
      p.revocationWriter,
      p.clock,
      p.openIdClaims,
    ),
  decideAuthorizationPrompt: (p) => new DecideAuthorizationPrompt(p.store.attachments, p.clock),
  readUserInfo: (p) => new ReadUserInfo(p.authenticateToken, p.openIdClaims),
  introspectToken: (p, uses) =>
    new IntrospectToken(
      uses.verifyToken,
      p.authenticateToken,
      p.introspectionFailures,
      p.clientAuthentication,
      p.urls.base,
    ),
  authenticateClient: (p) => new AuthenticateClient(p.clientAuthentication),
  revokeClientToken: (p) =>
    new RevokeClientToken(
      p.clientAuthentication,
      p.authenticateToken,
      p.revocationWriter,
      p.store.issuedTokens,
      p.clock,
      p.urls.base,
    ),
  reviewLogoutRequest: (p) => new ReviewLogoutRequest(p.clientRegistry, p.idTokenSigner, p.urls.base),
  logOutOfClient: (p) => new LogOutOfClient(p.store.issuedTokens, p.revocationWriter, p.clock),
} satisfies AreaRegistry<Pick<AccountUseCases, 'verifyToken'>>;

export type OAuthUseCases = UseCasesOf<typeof OAUTH_USE_CASES>;
