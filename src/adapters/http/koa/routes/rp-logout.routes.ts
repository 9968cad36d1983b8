// RP-initiated logout (API.md §2.5, OpenID Connect RP-Initiated Logout 1.0): a client sends the browser here to end
// what it was given. Showing the page never revokes anything — a link or an image could load it — only the form's
// decision does, behind the CSRF check: the client's tokens of one session, and with `all` the browser's L2 session.
import type { Context } from 'koa';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';
import { redirectWith } from '../../../../domain/oauth.js';
import { LOGOUT_PARAMETERS, type LogoutRequest } from '../../../../domain/rp-logout.js';
import { isScoped } from '../../../../domain/token.js';
import type { HttpDependencies } from '../dependencies.js';
import { clientDocumentView } from '../document-clients.js';
import { BODY_ERRORS, CSRF_ERRORS } from '../errors/edge-errors.js';
import { LOGOUT_REQUEST_ERRORS } from '../errors/oauth-errors.js';
import * as oauth from '../../shared/oauth-schemas.js';
import { renderPage } from '../pages.js';
import { presentedToken, viewer } from '../request-auth.js';
import type { RouteTable } from '../route-table.js';
import { clearTokenCookie } from '../session-cookies.js';
import { repeatedFormField } from './oauth.routes.js';
import { redirectToClient, requestFields } from './openid-authorization.js';

const LOGOUT_PAGE = {
  200: { description: 'The logout page', content: { 'text/html': { schema: { type: 'string' as const } } } },
};

/** Each parameter once, as a string, or the refusal (a repeated one could mean two different clients). */
function singleValues(source: Readonly<Record<string, unknown>>): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const name of LOGOUT_PARAMETERS) {
    const value = source[name];
    if (value !== undefined && typeof value !== 'string')
      throw LOGOUT_REQUEST_ERRORS.problem({
        type: 'repeated_parameter',
        detail: `${name} is given more than once.`,
      });
    values[name] = value;
  }
  return values;
}

/** Only the request's own parameters travel in the form: the page's hidden fields, nothing else echoed. */
const formFieldsOf = (source: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(requestFields(source)).filter(([name]) =>
      (LOGOUT_PARAMETERS as readonly string[]).includes(name),
    ),
  );

/**
 * The decision's CSRF check: the page was rendered for whoever viewed it — signed out, or the browser's session —
 * and either token is bound to this browser's CSRF cookie, which no other site can read.
 */
async function checkDecisionForm(ctx: Context, deps: HttpDependencies): Promise<void> {
  try {
    deps.csrf.check(ctx, null);
  } catch (signedOutRefused) {
    const signedIn = await viewer(ctx, deps);
    if (signedIn === null) throw signedOutRefused;
    deps.csrf.check(ctx, signedIn.claims.jti);
  }
}

export function rpLogoutRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases } = deps;

  const reviewed = async (source: Readonly<Record<string, unknown>>): Promise<LogoutRequest> => {
    const result = await useCases.reviewLogoutRequest.execute(singleValues(source));
    if (!result.ok) throw LOGOUT_REQUEST_ERRORS.problem(result.error);
    return result.value;
  };

  const showPage = (ctx: Context, request: LogoutRequest, source: Readonly<Record<string, unknown>>) =>
    renderPage(ctx, deps, 'logout', {
      title: 'Log out',
      client: request.clientId,
      hintUser: request.hint?.username ?? null,
      document: clientDocumentView(request.document),
      request: formFieldsOf(source),
      returnTo: request.postLogoutRedirectUri && new URL(request.postLogoutRedirectUri).origin,
    });

  /** `all`: the browser's session logged out as POST /auth/logout does (its scoped tokens too, notices after). */
  const logOutOfL2 = async (ctx: Context, session: AuthenticatedToken | null): Promise<void> => {
    const presented = session && presentedToken(ctx);
    if (presented) await useCases.revokeToken.execute({ token: presented.token, everywhere: false });
    clearTokenCookie(ctx, deps.settings.cookies);
    // The page rendered next shows a signed-out browser.
    ctx.state.viewer = null;
  };

  const spec = {
    summary:
      'RP-initiated logout: a page asking the person what to end (OpenID Connect RP-Initiated Logout 1.0)',
    description:
      'The client is the id_token_hint’s audience (an ID token of this L2, an expired one accepted) or client_id. ' +
      'post_logout_redirect_uri must be one the client declared (an L1 server URL client: a URL on it). The page ' +
      'never revokes anything; its form posts decision=client or decision=all back here. A request that cannot be ' +
      'answered safely: an error page (400), nothing revoked.',
    request: { query: oauth.LogoutQuery },
    responses: LOGOUT_PAGE,
    refusals: [LOGOUT_REQUEST_ERRORS],
  };
  routes.get('/oauth/logout', spec, async (ctx) => {
    await showPage(ctx, await reviewed(ctx.query), ctx.query);
  });

  routes.post(
    '/oauth/logout',
    {
      ...spec,
      summary: 'RP-initiated logout: without decision the page again; with it, the tokens ended',
      description:
        'decision=client revokes every unexpired token scoped to the client from the session named by the hint’s ' +
        'sid (without a hint: the browser’s session), the records first and the notices after; decision=all also ' +
        'logs the browser’s session out as POST /auth/logout does. Then 303 to post_logout_redirect_uri (with ' +
        'state), or a page saying what was ended.',
      request: {
        body: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: oauth.LogoutDecision } },
        },
      },
      responses: {
        ...LOGOUT_PAGE,
        303: { description: 'Ended: to `post_logout_redirect_uri`, with `state` when given' },
      },
      refusals: [LOGOUT_REQUEST_ERRORS, CSRF_ERRORS, BODY_ERRORS],
    },
    async (ctx) => {
      const form = (ctx.request.body ?? {}) as Record<string, unknown>;
      const repeated = repeatedFormField(ctx);
      if (repeated !== null)
        throw LOGOUT_REQUEST_ERRORS.problem({
          type: 'repeated_parameter',
          detail: `${repeated} is given more than once.`,
        });
      const request = await reviewed(form);
      const { decision } = form;
      if (decision === undefined) return showPage(ctx, request, form);
      if (
        (decision !== 'client' && decision !== 'all') ||
        (decision === 'client' && request.clientId === null)
      )
        throw LOGOUT_REQUEST_ERRORS.problem({
          type: 'invalid_logout_request',
          detail: 'decision must be client (for a request naming a client) or all.',
        });
      await checkDecisionForm(ctx, deps);
      const browser = await viewer(ctx, deps);
      const session = browser !== null && !isScoped(browser.claims) ? browser : null;
      const revoked =
        request.clientId === null
          ? 0
          : await useCases.logOutOfClient.execute({
              clientId: request.clientId,
              hint: request.hint,
              browserSession: session,
            });
      if (decision === 'all') await logOutOfL2(ctx, session);
      if (request.postLogoutRedirectUri !== null)
        return redirectToClient(ctx, redirectWith(request.postLogoutRedirectUri, { state: request.state }));
      await renderPage(ctx, deps, 'logout', {
        title: 'Logged out',
        ended: {
          client: request.clientId,
          hintUser: request.hint?.username ?? null,
          revoked,
          l2: decision === 'all',
        },
      });
    },
  );
}
