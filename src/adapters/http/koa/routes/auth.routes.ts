import type Router from '@koa/router';
import type { Context } from 'koa';
import { TOKEN_LIFETIME_SECONDS } from '../../../../domain/token.js';
import { normaliseL1Server } from '../../../../domain/l1-server.js';
import type { HttpDependencies } from '../dependencies.js';
import { scopedTokenForbidden, tokenProblem, unauthenticated } from '../error-status.js';
import { isFormPost, renderPage, safeNextPath, seeOther } from '../pages.js';
import { HttpProblem } from '../problem.js';
import { guardCookieRequest, presentedToken, requireAuth } from '../request-auth.js';
import { LoginRequest, LogoutRequest, RegisterRequest, VerifyRequest } from '../schemas.js';
import { clearTokenCookie, setTokenCookie } from '../session-cookies.js';
import { validateBody } from '../validate.js';

/** Form posts that fail re-render their page with the message; the password is never echoed back. */
async function rerender(
  ctx: Context,
  deps: HttpDependencies,
  page: 'login' | 'register',
  problem: HttpProblem,
) {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const username = typeof body.username === 'string' ? body.username : '';
  const title = page === 'login' ? 'Log in' : 'Register';
  for (const [name, value] of Object.entries(problem.extra.headers ?? {})) ctx.set(name, value);
  await renderPage(
    ctx,
    deps,
    page,
    { title, error: problem.detail, username, next: safeNextPath(body.next) },
    problem.status,
  );
}

/** Runs a handler; for a browser form, a problem re-renders the form instead of answering problem+json. */
async function formAware(
  ctx: Context,
  deps: HttpDependencies,
  page: 'login' | 'register',
  handler: () => Promise<void>,
) {
  try {
    // Login and register forms are rendered for signed-out visitors only.
    if (isFormPost(ctx)) deps.csrf.check(ctx, null);
    await handler();
  } catch (error) {
    if (isFormPost(ctx) && error instanceof HttpProblem && error.code !== 'csrf_failed') {
      await rerender(ctx, deps, page, error);
      return;
    }
    throw error;
  }
}

export function authRoutes(router: Router, deps: HttpDependencies): void {
  const { useCases, settings } = deps;
  const actorUrl = deps.urls.actor;

  router.post('/auth/register', (ctx) =>
    formAware(ctx, deps, 'register', async () => {
      const input = validateBody(ctx, RegisterRequest);
      const result = await useCases.registerUser.execute(input);
      if (!result.ok) {
        const error = result.error;
        throw error.type === 'username_taken'
          ? new HttpProblem(409, 'username_taken', `The username '${error.username}' is already registered.`)
          : new HttpProblem(400, 'invalid_request', `${error.path}: ${error.message}`, {
              errors: [{ path: error.path, message: error.message }],
            });
      }
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
    }),
  );

  router.post('/auth/login', (ctx) =>
    formAware(ctx, deps, 'login', async () => {
      const input = validateBody(ctx, LoginRequest);
      const result = await useCases.issueToken.execute({ ...input, clientAddress: ctx.ip });
      if (!result.ok) {
        const error = result.error;
        throw error.type === 'rate_limited'
          ? new HttpProblem(429, 'rate_limited', 'Too many failed logins. Try again later.', {
              headers: { 'Retry-After': String(error.retryAfterSeconds) },
            })
          : new HttpProblem(401, 'invalid_credentials', 'The username or password is wrong.');
      }
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
    }),
  );

  router.get('/auth/me', async (ctx) => {
    const { claims } = await requireAuth(ctx, deps);
    const user = await useCases.getUser.execute(claims.username);
    if (!user) throw tokenProblem({ type: 'token_invalid' });
    ctx.body = {
      username: user.username,
      actor: actorUrl(user.username),
      created_at: user.createdAt.toISOString(),
      l2_server: settings.publicUrl,
      token: {
        jti: claims.jti,
        issued_at: new Date(claims.iat * 1000).toISOString(),
        expires_at: new Date(claims.exp * 1000).toISOString(),
        l1_server: claims.l1_server ?? null,
      },
    };
  });

  router.post('/auth/verify', async (ctx) => {
    const input = validateBody(ctx, VerifyRequest);
    const l1Server = input.l1_server ? normaliseL1Server(input.l1_server) : null;
    const result = await useCases.verifyToken.execute({
      token: input.token,
      l1Server: l1Server?.ok ? l1Server.value : null,
    });
    if (!result.ok) throw tokenProblem(result.error, { valid: false });
    const { claims } = result.value;
    ctx.body = {
      valid: true,
      username: claims.username,
      l2_server: claims.l2_server,
      l1_server: claims.l1_server ?? null,
      expires_at: new Date(claims.exp * 1000).toISOString(),
    };
  });

  router.post('/auth/logout', async (ctx) => {
    const presented = presentedToken(ctx);
    if (!presented) throw unauthenticated();
    guardCookieRequest(ctx, deps, presented);
    const input = validateBody(ctx, LogoutRequest);
    const result = await useCases.revokeToken.execute({
      token: presented.token,
      everywhere: input.everywhere ?? false,
    });
    clearTokenCookie(ctx, settings.cookies);
    if (!result.ok)
      throw result.error.type === 'forbidden' ? scopedTokenForbidden() : tokenProblem(result.error);
    if (isFormPost(ctx)) return seeOther(ctx, '/');
    ctx.body = { revoked: result.value.revoked };
  });
}
