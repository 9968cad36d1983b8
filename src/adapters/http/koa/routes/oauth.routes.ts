// "Sign in with L2" (API.md §2.3): the consent page and its decision, and the token endpoint where the L1 server
// exchanges its code. The token never passes through a URL: only the code does, for 60 seconds, once.
import type { Context } from 'koa';
import type { AuthorizationRequest } from '../../../../domain/oauth.js';
import { parseTokenRequest } from '../../../../domain/oauth.js';
import { openIdGrantOf, type OpenIdParameters } from '../../../../domain/openid.js';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';
import type { HttpDependencies } from '../dependencies.js';
import { BODY_ERRORS, CSRF_ERRORS } from '../errors/edge-errors.js';
import { AUTHORIZATION_REQUEST_ERRORS, TOKEN_REQUEST_ERRORS } from '../errors/oauth-errors.js';
import { ATTACH_ERRORS, AUTHENTICATION } from '../errors/account-errors.js';
import { SCOPED_TOKEN } from '../errors/shared-refusals.js';
import * as oauth from '../../shared/oauth-schemas.js';
import { exchangedTokenJson } from '../../shared/presenters/oauth-presenters.js';
import { json, signedIn } from '../openapi-docs.js';
import { renderPage } from '../pages.js';
import { authenticatedTokenRequest, consentDocumentView } from '../document-clients.js';
import { requireSession, viewer } from '../request-auth.js';
import type { RouteTable } from '../route-table.js';
import {
  openIdParametersOf,
  promptAllows,
  redirectToClient,
  refuseToClient,
  requestFields,
  withIssuer,
} from './openid-authorization.js';

/** The parameters of an authorization request, as the consent form carries them back. */
const REQUEST_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

/** Each parameter once, as a string (RFC 6749 §3.1: a repeated parameter is an error), or the refusal. */
function singleValues(source: Readonly<Record<string, unknown>>): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const name of REQUEST_PARAMETERS) {
    const value = source[name];
    if (value !== undefined && typeof value !== 'string') {
      throw AUTHORIZATION_REQUEST_ERRORS.problem({
        type: 'repeated_parameter',
        detail: `${name} is given more than once.`,
      });
    }
    values[name] = value;
  }
  return values;
}

/** A form body's names given more than once (the parsed body keeps the last of each, so the raw text is read). */
export function repeatedFormField(ctx: Context): string | null {
  if (!ctx.request.is('application/x-www-form-urlencoded') || typeof ctx.request.rawBody !== 'string')
    return null;
  const seen = new Set<string>();
  for (const name of new URLSearchParams(ctx.request.rawBody).keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

export function oauthRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases } = deps;

  /** The request of a query or a consent form, checked as API.md §2.3 says; an error page otherwise. */
  const reviewed = async (source: Readonly<Record<string, unknown>>): Promise<AuthorizationRequest> => {
    const result = await useCases.reviewAuthorizationRequest.execute(singleValues(source));
    if (!result.ok) throw AUTHORIZATION_REQUEST_ERRORS.problem(result.error);
    return result.value;
  };

  /** Allow: the attachment recorded, a code made (remembering what OpenID Connect granted), and back to the client. */
  const grant = async (
    ctx: Context,
    session: AuthenticatedToken,
    request: AuthorizationRequest,
    params: OpenIdParameters,
  ): Promise<void> => {
    const openid = openIdGrantOf(params);
    const granted = await useCases.grantAuthorizationCode.execute({ session, request, openid });
    if (!granted.ok) throw ATTACH_ERRORS.problem(granted.error);
    redirectToClient(ctx, withIssuer(granted.value.redirectTo, deps.settings.publicUrl));
  };

  routes.get(
    '/oauth/authorize',
    {
      summary:
        '"Sign in with L2": the consent page an L1 server sends the browser to (authorization code + PKCE)',
      description:
        'Signed out: 303 to /login, and back here after. Signed in: a page naming the L1 server, with Allow and ' +
        'Deny. A bad client_id or redirect_uri, or PKCE missing or not S256: an error page, never a redirect. ' +
        'OpenID Connect (API.md §2.5): scope=openid, nonce, prompt (none: no page — a code at once, or ' +
        'login_required / consent_required), max_age; every redirect to the client carries iss (RFC 9207).',
      security: signedIn,
      request: { query: oauth.AuthorizeQuery },
      responses: {
        200: { description: 'The consent page', content: { 'text/html': { schema: { type: 'string' } } } },
        303: {
          description:
            'Signed out (or prompt=login / max_age asks for a fresher sign-in): to /login, with `next` back here; ' +
            'prompt=none, or an OpenID parameter refused: to `redirect_uri` with `code` or `error`, and `iss`',
        },
      },
      // ATTACH_ERRORS: prompt=none grants at once, as Allow does.
      refusals: [AUTHORIZATION_REQUEST_ERRORS, SCOPED_TOKEN, ATTACH_ERRORS],
    },
    async (ctx) => {
      const request = await reviewed(ctx.query);
      const params = openIdParametersOf(ctx, deps, request, ctx.query);
      if (!params) return;
      const signedInAs = await viewer(ctx, deps);
      if (signedInAs !== null && signedInAs.claims.l1_server !== undefined)
        throw SCOPED_TOKEN.problem({ type: 'forbidden' });
      const goesOn = await promptAllows({
        ctx,
        deps,
        request,
        params,
        source: ctx.query,
        session: signedInAs,
        grantNow: (session) => grant(ctx, session, request, params),
      });
      if (!goesOn) return;
      await renderPage(ctx, deps, 'authorize', {
        title: 'Sign in with L2',
        client: request.clientId,
        document: consentDocumentView(request),
        returnTo: new URL(request.redirectUri).origin,
        sharesProfile: params.profile,
        request: requestFields(ctx.query),
      });
    },
  );

  routes.post(
    '/oauth/authorize',
    {
      summary: 'The consent form: Allow (the attachment is recorded, a code sent back) or Deny',
      security: signedIn,
      request: {
        body: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: oauth.AuthorizeDecision } },
        },
      },
      responses: {
        303: {
          description:
            'Allow: to `redirect_uri?code=…&state=…&iss=…` (a single-use code living 60 s). ' +
            'Deny: to `redirect_uri?error=access_denied&error_description=…&state=…&iss=…`. A request asking ' +
            'for a fresher sign-in (prompt=login, max_age): to /login first.',
        },
      },
      refusals: [
        AUTHENTICATION,
        SCOPED_TOKEN,
        CSRF_ERRORS,
        BODY_ERRORS,
        AUTHORIZATION_REQUEST_ERRORS,
        ATTACH_ERRORS,
      ],
    },
    async (ctx) => {
      const session = await requireSession(ctx, deps);
      const form = (ctx.request.body ?? {}) as Record<string, unknown>;
      const repeated = repeatedFormField(ctx);
      if (repeated !== null)
        throw AUTHORIZATION_REQUEST_ERRORS.problem({
          type: 'repeated_parameter',
          detail: `${repeated} is given more than once.`,
        });
      const request = await reviewed(form);
      const params = openIdParametersOf(ctx, deps, request, form);
      if (!params) return;
      if (form.decision !== 'allow')
        return refuseToClient(ctx, deps, request, {
          error: 'access_denied',
          description: 'The person denied the request.',
        });
      const goesOn = await promptAllows({
        ctx,
        deps,
        request,
        params,
        source: form,
        session,
        grantNow: (signedIn) => grant(ctx, signedIn, request, params),
      });
      if (goesOn) await grant(ctx, session, request, params);
    },
  );

  routes.post(
    '/oauth/token',
    {
      summary: 'Exchange an authorization code (with its PKCE verifier) for a token scoped to the L1 server',
      description:
        'RFC 6749 §4.1.3 with RFC 7636. The client authenticates as API.md §2.5 says: `client_id` (or Basic with ' +
        'an empty password) for public clients, private_key_jwt when its document declares it; a secret is refused. ' +
        'A code used twice is refused and the token its first use got is revoked. Refusals are RFC 6749 JSON.',
      request: {
        body: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: oauth.TokenRequest },
            'application/json': { schema: oauth.TokenRequest },
          },
        },
      },
      responses: { 200: json(oauth.TokenResponse, 'The token, scoped to the L1 server') },
      refusals: [BODY_ERRORS, TOKEN_REQUEST_ERRORS],
    },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Pragma', 'no-cache');
      const repeated = repeatedFormField(ctx);
      if (repeated !== null)
        throw TOKEN_REQUEST_ERRORS.problem({
          type: 'invalid_request',
          detail: `${repeated} is given more than once.`,
        });
      const { fields, client } = await authenticatedTokenRequest(ctx, deps);
      const request = parseTokenRequest(fields);
      if (!request.ok) throw TOKEN_REQUEST_ERRORS.problem(request.error);
      const exchanged = await useCases.exchangeAuthorizationCode.execute(request.value, client);
      if (!exchanged.ok) throw TOKEN_REQUEST_ERRORS.problem(exchanged.error);
      ctx.body = exchangedTokenJson(exchanged.value);
    },
  );
}
