// What OpenID Connect adds to the authorization endpoint (API.md §2.5), called from oauth.routes.ts: the request's
// OpenID parameters, `iss` on every redirect to the client (RFC 9207), the consent form carrying every parameter, and
// `prompt` / `max_age` — signing in again, or answering at once without a page.
import type { Context } from 'koa';
import type { AuthorizationRequest } from '../../../../domain/oauth.js';
import { redirectWith } from '../../../../domain/oauth.js';
import {
  parseOpenIdParameters,
  type AuthorizationRedirectError,
  type OpenIdParameters,
} from '../../../../domain/openid.js';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';
import type { HttpDependencies } from '../dependencies.js';
import { seeOther } from '../pages.js';
import { SIGNED_IN_AFTER } from '../sign-in-marks.js';

/** Form fields that are the form's own, not the request's. */
const FORM_OWN = new Set(['_csrf', 'decision']);

/**
 * Every parameter of the request, each given once, as the consent form carries it back as hidden fields (API.md
 * §2.5: the decision acts on exactly the request that was shown — `nonce` and `scope` included).
 */
export function requestFields(source: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && !FORM_OWN.has(entry[0]),
    ),
  );
}

/** Sends the browser on with nothing to leak: no caching, no referrer (the code is in the URL for a moment). */
export function redirectToClient(ctx: Context, location: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  seeOther(ctx, location);
}

/**
 * RFC 9207: every answer sent to a verified `redirect_uri` names this issuer, so that a client talking to several
 * cannot be sent one's code as another's (mix-up). `location` is the redirect URI with the answer's parameters.
 */
export const withIssuer = (location: string, issuer: string): string =>
  redirectWith(location, { iss: issuer });

/** An error sent back to the client (API.md §2.5): `error`, `error_description`, `state`, `iss`. */
export function refuseToClient(
  ctx: Context,
  deps: HttpDependencies,
  request: AuthorizationRequest,
  refusal: AuthorizationRedirectError,
): void {
  const location = redirectWith(request.redirectUri, {
    error: refusal.error,
    error_description: refusal.description,
    state: request.state,
  });
  redirectToClient(ctx, withIssuer(location, deps.settings.publicUrl));
}

/** What the request's OpenID Connect parameters ask for, or null once its refusal has been sent to the client. */
export function openIdParametersOf(
  ctx: Context,
  deps: HttpDependencies,
  request: AuthorizationRequest,
  source: Readonly<Record<string, unknown>>,
): OpenIdParameters | null {
  const params = parseOpenIdParameters(source);
  if (params.ok) return params.value;
  refuseToClient(ctx, deps, request, params.error);
  return null;
}

/**
 * Decides what `prompt` and `max_age` ask of this browser. Answers true when the request goes on (the consent page,
 * or its decision); false when the answer has been sent: to sign in (again), or an error back to the client. For
 * `prompt=none` with a client allowed before, `grantNow` makes the code at once.
 */
export async function promptAllows(input: {
  ctx: Context;
  deps: HttpDependencies;
  request: AuthorizationRequest;
  params: OpenIdParameters;
  source: Readonly<Record<string, unknown>>;
  session: AuthenticatedToken | null;
  grantNow: (session: AuthenticatedToken) => Promise<void>;
}): Promise<boolean> {
  const { ctx, deps, request, params, source, session } = input;
  const outcome = await deps.useCases.decideAuthorizationPrompt.execute({
    params,
    clientId: request.clientId,
    session: session?.claims ?? null,
    signedInAfter: session === null ? null : deps.signInMarks.read(source),
  });
  switch (outcome.kind) {
    case 'ask':
      return true;
    case 'refuse':
      refuseToClient(ctx, deps, request, outcome.error);
      return false;
    case 'grant':
      await input.grantNow(session!);
      return false;
    case 'sign_in': {
      const fresh = params.prompt.has('login') || params.maxAge !== null;
      const fields = requestFields(source);
      const marked = { ...fields, [SIGNED_IN_AFTER]: deps.signInMarks.make(fields, outcome.arrivedAt) };
      // Signed out with nothing asked about freshness: back to the very request, as §2.3 has it.
      const back = fresh ? `/oauth/authorize?${new URLSearchParams(marked).toString()}` : ctx.originalUrl;
      // A signed-in browser asked to sign in again is shown the login form all the same (`again`).
      seeOther(ctx, `/login?next=${encodeURIComponent(back)}${session === null ? '' : '&again=1'}`);
      return false;
    }
  }
}
