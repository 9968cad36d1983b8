import type { Context } from 'koa';
import type { z } from 'zod';
import { clientAddress } from '../../shared/client-address.js';
import {
  loggedInJson,
  meJson,
  registeredJson,
  revokedJson,
} from '../../shared/presenters/account-presenters.js';
import type { HttpDependencies } from '../dependencies.js';
import { body, json, signedIn } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';
import * as schemas from '../../shared/schemas.js';
import {
  AUTHENTICATION,
  LOGIN_ERRORS,
  LOGOUT_ERRORS,
  REGISTER_ERRORS,
  TOKEN_ERRORS,
  tokenProblem,
} from '../errors/account-errors.js';
import { CSRF_ERRORS, JSON_BODY, OVERLOADED, REVOCATIONS_UNREADABLE } from '../errors/edge-errors.js';
import type { Refusals } from '../errors/error-table.js';
import {
  checkFormOfAnyViewer,
  formOrJson,
  isFormPost,
  renderPage,
  safeNextPath,
  seeOther,
} from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { guardCookieRequest, presentedToken, requireAuth } from '../request-auth.js';
import { LoginRequest, LogoutRequest, RegisterRequest, VerifyRequest } from '../../shared/schemas.js';
import { clearTokenCookie, setTokenCookie } from '../session-cookies.js';
import { validateBody } from '../validate.js';
import { verifiedAnswer } from '../../hot-paths/answers.js';
import { verifyInput } from '../../hot-paths/verify-input.js';
import { sendAnswer } from '../respond.js';
import { counted } from '../outcomes.js';
import { secondStepOf } from './sign-in.routes.js';

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

export function authRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings } = deps;

  /** POST /auth/<page>: an API call, or a signed-out visitor's form (CSRF-checked, shown again when refused). */
  const signedOutForm = (
    page: 'login' | 'register',
    doc: {
      summary: string;
      body: z.ZodType;
      ok: [number, z.ZodType, string];
      redirect: string;
      refusals: readonly Refusals[];
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
        },
        // Only a form post is CSRF-checked, against the viewer its page was rendered for.
        refusals: [CSRF_ERRORS, ...JSON_BODY, ...doc.refusals],
      },
      async (ctx) => {
        await checkFormOfAnyViewer(ctx, deps);
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
      refusals: [REGISTER_ERRORS, OVERLOADED],
    },
    async (ctx) => {
      const input = validateBody(ctx, RegisterRequest);
      const result = await useCases.registerUser.execute({ ...input, clientAddress: clientAddress(ctx, 48) });
      if (!result.ok) throw REGISTER_ERRORS.problem(result.error);
      const { user, session } = result.value;
      if (isFormPost(ctx)) {
        setTokenCookie(ctx, session.token, settings.cookies);
        return seeOther(ctx, '/');
      }
      ctx.status = 201;
      ctx.body = registeredJson(user, session, deps.urls, settings.webfingerDomain);
    },
  );

  signedOutForm(
    'login',
    {
      summary: 'Exchange credentials for a 30-day token',
      body: schemas.LoginRequest,
      ok: [200, schemas.LoginResponse, 'Signed in'],
      redirect: 'Form post: cookie set, redirected to `next` (a local path) or /',
      refusals: [LOGIN_ERRORS],
    },
    (ctx) => counted(deps.metrics.loggedIn, 'ok', () => login(ctx)),
  );

  const login = async (ctx: Context) => {
    const input = validateBody(ctx, LoginRequest);
    const result = await useCases.issueToken.execute({ ...input, clientAddress: clientAddress(ctx) });
    if (!result.ok) {
      // A browser gets the second step's page; an API client the `mfa_required` problem with the step's id.
      if (result.error.type === 'mfa_required' && isFormPost(ctx)) {
        const next = safeNextPath((ctx.request.body as Record<string, unknown>).next);
        return secondStepOf(ctx, deps, result.error, next);
      }
      throw LOGIN_ERRORS.problem(result.error);
    }
    const session = result.value;
    if (isFormPost(ctx)) {
      setTokenCookie(ctx, session.token, settings.cookies);
      return seeOther(ctx, safeNextPath((ctx.request.body as Record<string, unknown>).next));
    }
    ctx.body = loggedInJson(session);
  };

  routes.get(
    '/auth/me',
    {
      summary: 'The current user and token',
      security: signedIn,
      responses: { 200: json(schemas.MeResponse, 'The caller') },
      // A token whose account is gone since it was issued is no longer valid.
      refusals: [AUTHENTICATION, TOKEN_ERRORS.only('token_invalid')],
    },
    async (ctx) => {
      const session = await requireAuth(ctx, deps);
      const found = await useCases.getCurrentUser.execute(session);
      if (!found.ok) throw TOKEN_ERRORS.problem(found.error);
      ctx.body = meJson(found.value, session.claims, deps.urls, settings.publicUrl);
    },
  );

  routes.post(
    '/auth/verify',
    {
      summary: 'Called by L1 servers: is this token valid for me?',
      request: body(schemas.VerifyRequest),
      responses: { 200: json(schemas.VerifyResponse, 'Valid') },
      // Every token verdict carries `valid: false`.
      refusals: [...JSON_BODY, TOKEN_ERRORS, REVOCATIONS_UNREADABLE],
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
      },
      // A revoked token may log out again: the token is judged by its signature and lifetime only.
      refusals: [
        AUTHENTICATION.only('unauthenticated', 'malformed_authorization'),
        CSRF_ERRORS,
        ...JSON_BODY,
        LOGOUT_ERRORS.only('token_invalid', 'token_expired', 'forbidden'),
      ],
    },
    async (ctx) => {
      const presented = presentedToken(ctx);
      if (!presented) throw AUTHENTICATION.problem({ type: 'unauthenticated' });
      guardCookieRequest(ctx, deps, presented);
      const input = validateBody(ctx, LogoutRequest);
      const result = await useCases.revokeToken.execute({
        token: presented.token,
        everywhere: input.everywhere ?? false,
      });
      clearTokenCookie(ctx, settings.cookies);
      if (!result.ok) throw LOGOUT_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, '/');
      ctx.body = revokedJson(result.value.revoked);
    },
  );
}
