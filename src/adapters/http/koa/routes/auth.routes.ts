import type { Context } from 'koa';
import type { z } from 'zod';
import { expiresAt, issuedAt, TOKEN_LIFETIME_SECONDS } from '../../../../domain/token.js';
import { clientAddress } from '../client-address.js';
import type { HttpDependencies } from '../dependencies.js';
import { body, commonBodyErrors, json, problem, signedIn } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';
import * as schemas from '../schemas.js';
import {
  loginProblem,
  registerProblem,
  sessionProblem,
  tokenProblem,
  unauthenticated,
} from '../error-status.js';
import { formOrJson, isFormPost, renderPage, safeNextPath, seeOther } from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { guardCookieRequest, presentedToken, requireAuth } from '../request-auth.js';
import { LoginRequest, LogoutRequest, RegisterRequest, VerifyRequest } from '../schemas.js';
import { clearTokenCookie, setTokenCookie } from '../session-cookies.js';
import { validateBody } from '../validate.js';
import { verifiedAnswer } from '../../hot-paths/answers.js';
import { verifyInput } from '../../hot-paths/verify-answer.js';
import { sendAnswer } from '../respond.js';
import { counted } from '../outcomes.js';

/** A refused login or registration form shows again with the message; the password is never echoed back. */
const showAuthForm =
  (ctx: Context, deps: HttpDependencies, page: 'login' | 'register') =>
  (problem: HttpProblem): Promise<void> => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username : '';
    const title = page === 'login' ? 'Log in' : 'Register';
    return renderPage(
      ctx,
      deps,
      page,
      { title, error: problem.detail, username, next: safeNextPath(body.next) },
      problem.status,
    );
  };

/** Login and register forms are rendered for signed-out visitors only: their CSRF token is bound to no session. */
const checkSignedOutForm = (ctx: Context, deps: HttpDependencies) => {
  if (isFormPost(ctx)) deps.csrf.check(ctx, null);
};

export function authRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings } = deps;
  const actorUrl = deps.urls.actor;

  /** POST /auth/<page>: an API call, or a signed-out visitor's form (CSRF-checked, shown again when refused). */
  const signedOutForm = (
    page: 'login' | 'register',
    doc: {
      summary: string;
      body: z.ZodType;
      ok: [number, z.ZodType, string];
      redirect: string;
      refusals: object;
    },
    handle: (ctx: Context) => Promise<void>,
  ) =>
    routes.post(
      `/auth/${page}`,
      {
        summary: doc.summary,
        request: body(doc.body),
        responses: {
          [doc.ok[0]]: json(doc.ok[1], doc.ok[2]),
          303: { description: doc.redirect },
          ...commonBodyErrors,
          403: problem('csrf_failed (form posts only)'),
          ...doc.refusals,
        },
      },
      (ctx) => {
        checkSignedOutForm(ctx, deps);
        return formOrJson(ctx, showAuthForm(ctx, deps, page), () => handle(ctx));
      },
    );

  signedOutForm(
    'register',
    {
      summary: 'Create an account (and its RSA key pair) and sign in',
      body: schemas.RegisterRequest,
      ok: [201, schemas.RegisterResponse, 'Created and signed in'],
      redirect: 'Form post: cookie set, redirected to /',
      refusals: {
        409: problem('username_taken'),
        429: problem(
          'rate_limited: too many registrations from this address (Retry-After says when to try again)',
        ),
        503: problem(
          'unavailable: too many key pairs being generated or passwords being hashed now (Retry-After says when ' +
            'to try again)',
        ),
      },
    },
    async (ctx) => {
      const input = validateBody(ctx, RegisterRequest);
      const result = await useCases.registerUser.execute({ ...input, clientAddress: clientAddress(ctx, 48) });
      if (!result.ok) throw registerProblem(result.error);
      const { user, session } = result.value;
      if (isFormPost(ctx)) {
        setTokenCookie(ctx, session.token, settings.cookies);
        return seeOther(ctx, '/');
      }
      ctx.status = 201;
      ctx.body = {
        username: user.username,
        actor: actorUrl(user.username),
        webfinger: `acct:${user.username}@${settings.webfingerDomain}`,
        created_at: user.createdAt.toISOString(),
        access_token: session.token,
        token_type: 'Bearer',
        expires_at: session.expiresAt.toISOString(),
      };
    },
  );

  signedOutForm(
    'login',
    {
      summary: 'Exchange credentials for a 30-day token',
      body: schemas.LoginRequest,
      ok: [200, schemas.LoginResponse, 'Signed in'],
      redirect: 'Form post: cookie set, redirected to `next` (a local path) or /',
      refusals: {
        401: problem('invalid_credentials (same answer for an unknown user and a wrong password)'),
        429: problem('rate_limited, with Retry-After'),
        503: problem('unavailable: too many passwords being checked now, nothing checked (with Retry-After)'),
      },
    },
    (ctx) => counted(deps.metrics.loggedIn, 'ok', () => login(ctx)),
  );

  const login = async (ctx: Context) => {
    const input = validateBody(ctx, LoginRequest);
    const result = await useCases.issueToken.execute({ ...input, clientAddress: clientAddress(ctx) });
    if (!result.ok) throw loginProblem(result.error);
    const session = result.value;
    if (isFormPost(ctx)) {
      setTokenCookie(ctx, session.token, settings.cookies);
      return seeOther(ctx, safeNextPath((ctx.request.body as Record<string, unknown>).next));
    }
    ctx.body = {
      username: session.claims.username,
      access_token: session.token,
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
      expires_at: session.expiresAt.toISOString(),
    };
  };

  routes.get(
    '/auth/me',
    {
      summary: 'The current user and token',
      security: signedIn,
      responses: { 200: json(schemas.MeResponse, 'The caller'), 401: problem('unauthenticated or token_*') },
    },
    async (ctx) => {
      const session = await requireAuth(ctx, deps);
      const found = await useCases.getCurrentUser.execute(session);
      if (!found.ok) throw tokenProblem(found.error);
      const user = found.value;
      const { claims } = session;
      ctx.body = {
        username: user.username,
        actor: actorUrl(user.username),
        created_at: user.createdAt.toISOString(),
        l2_server: settings.publicUrl,
        token: {
          jti: claims.jti,
          issued_at: issuedAt(claims).toISOString(),
          expires_at: expiresAt(claims).toISOString(),
          l1_server: claims.l1_server ?? null,
        },
      };
    },
  );

  routes.post(
    '/auth/verify',
    {
      summary: 'Called by L1 servers: is this token valid for me?',
      request: body(schemas.VerifyRequest),
      responses: {
        200: json(schemas.VerifyResponse, 'Valid'),
        ...commonBodyErrors,
        401: problem('valid: false with token_invalid, token_expired, token_revoked or token_scope_mismatch'),
        503: problem('unavailable: the revocation records cannot be read (fails closed)'),
      },
    },
    (ctx) =>
      counted(deps.metrics.verified, 'valid', async () => {
        const result = await useCases.verifyToken.execute(
          verifyInput(validateBody(ctx, VerifyRequest), deps.l1ServerUrls),
        );
        if (!result.ok) throw tokenProblem(result.error, { valid: false });
        sendAnswer(ctx, verifiedAnswer(result.value.claims));
      }),
  );

  routes.post(
    '/auth/logout',
    {
      summary: 'Revoke the presented token (its scoped tokens; with `everywhere`, every token of the user)',
      security: signedIn,
      request: {
        body: { required: false, content: { 'application/json': { schema: schemas.LogoutRequest } } },
      },
      responses: {
        200: json(schemas.RevokedResponse, 'Revoked; notices to L1 servers are queued'),
        303: { description: 'Form post: cookie cleared, redirected to /' },
        ...commonBodyErrors,
        401: problem('unauthenticated, token_invalid or token_expired'),
        403: problem('csrf_failed (cookie-authenticated requests)'),
      },
    },
    async (ctx) => {
      const presented = presentedToken(ctx);
      if (!presented) throw unauthenticated();
      guardCookieRequest(ctx, deps, presented);
      const input = validateBody(ctx, LogoutRequest);
      const result = await useCases.revokeToken.execute({
        token: presented.token,
        everywhere: input.everywhere ?? false,
      });
      clearTokenCookie(ctx, settings.cookies);
      if (!result.ok) throw sessionProblem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, '/');
      ctx.body = { revoked: result.value.revoked };
    },
  );
}
