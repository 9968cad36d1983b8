// The sign-in steps beside the password (docs/accounts.md): the second step of an account with its second factor
// on, passkey sign-in, and the operator's reset link — for API clients and for the browser's signed-out forms.
import type { Context } from 'koa';
import type { IssuedTokenView } from '../../../../application/services/token-issuer.js';
import type { PendingSignIn } from '../../../../application/services/second-steps.js';
import type { CompleteSignInError } from '../../../../application/use-cases/security/complete-sign-in.js';
import type { ResetPasswordError } from '../../../../application/use-cases/security/reset-password.js';
import { PASSWORD_HASHED_BYTES } from '../../../../domain/password.js';
import { clientAddress, requestAddress } from '../../shared/client-address.js';
import type { HttpDependencies } from '../dependencies.js';
import { CSRF_ERRORS, JSON_BODY } from '../errors/edge-errors.js';
import { ErrorTable } from '../errors/error-table.js';
import { invalidField, rateLimited } from '../errors/shared-refusals.js';
import { body, json } from '../openapi-docs.js';
import {
  checkFormOfAnyViewer,
  formOrJson,
  isFormPost,
  renderPage,
  safeNextPath,
  seeOther,
} from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { counted } from '../outcomes.js';
import { PAGE, type RouteTable } from '../route-table.js';
import {
  ceremonyOptionsJson,
  resetDoneJson,
  signedInJson,
} from '../../shared/presenters/security-presenters.js';
import * as security from '../../shared/security-schemas.js';
import { setTokenCookie } from '../session-cookies.js';
import { validateBody } from '../validate.js';

/** A reset link that is used, expired or replaced is gone for good: 410. */
export const RESET_ERRORS = new ErrorTable<ResetPasswordError>({
  challenge_expired: {
    status: 410,
    code: 'gone',
    doc: 'the reset link was used, has expired (it lives one hour) or was replaced by a newer one',
    input: true,
    detail: 'This reset link was used already, has expired or was replaced. Ask your operator for a new one.',
  },
  invalid_request: invalidField(),
  unavailable: {
    status: 503,
    doc: 'too many passwords are being hashed now; nothing was changed (see Retry-After)',
    input: true,
    detail: 'Too many passwords are being checked right now. Try again in a few seconds.',
    headers: (error) => ({ 'Retry-After': String(error.retryAfterSeconds) }),
  },
});

const PASSKEY_OPTIONS_ERRORS = new ErrorTable<{
  readonly type: 'rate_limited';
  readonly retryAfterSeconds: number;
}>({
  rate_limited: rateLimited(
    'Too many passkey sign-ins from your address. Try again in a minute.',
    'too many passkey challenges from this address (see Retry-After)',
  ),
});

const PASSKEY_SIGN_IN_ERRORS = new ErrorTable<{ readonly type: 'invalid_credentials' }>({
  invalid_credentials: {
    status: 401,
    doc: 'the passkey was not accepted (unknown, another origin, no user verification, a used or expired challenge…)',
    input: true,
    detail: 'The passkey was not accepted. Try again, or sign in with your password.',
  },
});

/** The second step: its code, the login limits, the step itself. */
const SECOND_STEP_ERRORS = new ErrorTable<CompleteSignInError>({
  invalid_credentials: {
    status: 401,
    doc: 'the code is wrong or was used already (counts towards the login limits)',
    input: true,
    detail: 'That code is wrong or was used already.',
  },
  rate_limited: rateLimited(
    'Too many failed logins. Try again later.',
    'too many failed logins (see Retry-After)',
  ),
  challenge_expired: {
    status: 401,
    doc: 'the step is unknown, used or expired (five minutes): sign in again',
    input: true,
    detail: 'This sign-in has expired or was completed already. Please sign in again.',
  },
});

const formField = (ctx: Context, name: string): string => {
  const value = (ctx.request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/** The second step's page: the code field, the step's id in a hidden field (never in a URL). */
export const showSecondStep = (
  ctx: Context,
  deps: HttpDependencies,
  step: { readonly challenge: string; readonly next: string },
  extra: { readonly error?: string } = {},
  status = 200,
): Promise<void> =>
  renderPage(ctx, deps, 'login-step', { title: 'Two-step sign-in', ...step, ...extra }, status);

/** The page a form login of an account with its second factor on gets instead of a cookie. */
export const secondStepOf = (ctx: Context, deps: HttpDependencies, pending: PendingSignIn, next: string) =>
  showSecondStep(ctx, deps, { challenge: pending.challenge, next });

export function signInRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings } = deps;

  /** A signed-in browser: the cookie, and on to the local page it came for. */
  const signedIn = (ctx: Context, session: IssuedTokenView) => {
    if (isFormPost(ctx)) {
      setTokenCookie(ctx, session.token, settings.cookies);
      return seeOther(ctx, safeNextPath(formField(ctx, 'next')));
    }
    ctx.body = signedInJson(session);
  };

  const showLogin = (ctx: Context, problem: HttpProblem) =>
    renderPage(
      ctx,
      deps,
      'login',
      { title: 'Log in', error: problem.detail, next: safeNextPath(formField(ctx, 'next')) },
      problem.status,
    );

  routes.post(
    '/auth/login/mfa',
    {
      summary: 'Complete a password sign-in with the code of the authenticator app or a recovery code',
      description:
        'After `POST /auth/login` answered `401 mfa_required`: its `challenge` (single-use, five minutes) with a code. ' +
        'Each code works once; wrong codes count towards the login limits.',
      request: body(security.SecondStepRequest),
      responses: {
        200: json(security.SignedIn, 'Signed in (amr: pwd, otp, mfa)'),
        303: { description: 'Form post: cookie set, redirected to `next` (a local path) or /' },
      },
      refusals: [CSRF_ERRORS, ...JSON_BODY, SECOND_STEP_ERRORS],
    },
    async (ctx) => {
      await checkFormOfAnyViewer(ctx, deps);
      return formOrJson(
        ctx,
        async (problem) => {
          if (problem.code === 'challenge_expired') return showLogin(ctx, problem);
          const step = { challenge: formField(ctx, 'challenge'), next: safeNextPath(formField(ctx, 'next')) };
          await showSecondStep(ctx, deps, step, { error: problem.detail }, problem.status);
        },
        () =>
          counted(deps.metrics.loggedIn, 'ok', async () => {
            const input = validateBody(ctx, security.SecondStepRequest);
            const result = await useCases.completeSignIn.execute({
              challenge: input.challenge,
              ...(input.code === undefined ? {} : { code: input.code }),
              ...(input.recovery_code === undefined ? {} : { recoveryCode: input.recovery_code }),
              clientAddress: clientAddress(ctx),
              address: requestAddress(ctx),
            });
            if (!result.ok) throw SECOND_STEP_ERRORS.problem(result.error);
            signedIn(ctx, result.value);
          }),
      );
    },
  );

  routes.post(
    '/auth/login/passkey/options',
    {
      summary: 'Options for signing in with a passkey (or confirming a change with one): a fresh challenge',
      description:
        'No username: the passkey is a discoverable credential. The challenge is single-use and lives five minutes; ' +
        'send what `navigator.credentials.get()` gives to POST /auth/login/passkey (or as `passkey` of a change).',
      responses: { 200: json(security.CeremonyOptions, 'The options for navigator.credentials.get()') },
      refusals: [PASSKEY_OPTIONS_ERRORS],
    },
    async (ctx) => {
      const result = await useCases.startPasskeySignIn.execute(clientAddress(ctx));
      if (!result.ok) throw PASSKEY_OPTIONS_ERRORS.problem(result.error);
      ctx.body = ceremonyOptionsJson(result.value);
    },
  );

  routes.post(
    '/auth/login/passkey',
    {
      summary: 'Sign in with a passkey: no username, no password (both factors at once)',
      request: body(security.PasskeySignInRequest),
      responses: {
        200: json(security.SignedIn, 'Signed in (amr: hwk or swk, and mfa)'),
        303: { description: 'Form post: cookie set, redirected to `next` (a local path) or /' },
      },
      refusals: [CSRF_ERRORS, ...JSON_BODY, PASSKEY_SIGN_IN_ERRORS],
    },
    async (ctx) => {
      await checkFormOfAnyViewer(ctx, deps);
      return formOrJson(
        ctx,
        (problem) => showLogin(ctx, problem),
        () =>
          counted(deps.metrics.loggedIn, 'ok', async () => {
            const input = validateBody(ctx, security.PasskeySignInRequest);
            const result = await useCases.signInWithPasskey.execute(input.response);
            if (!result.ok) throw PASSKEY_SIGN_IN_ERRORS.problem(result.error);
            signedIn(ctx, result.value);
          }),
      );
    },
  );

  /** The reset page is its link: nothing on it may leak the token (no referrer, no cache, no URL of it inside). */
  const resetPage = async (ctx: Context, model: Record<string, unknown>, status = 200) => {
    ctx.set('Referrer-Policy', 'no-referrer');
    await renderPage(
      ctx,
      deps,
      'reset',
      { title: 'Set a new password', hashedBytes: PASSWORD_HASHED_BYTES, ...model },
      status,
    );
  };

  routes.get('/auth/reset', PAGE, async (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const link = await useCases.checkResetLink.execute(token);
    if (!link.ok) {
      const problem = RESET_ERRORS.problem(link.error);
      return resetPage(ctx, { error: problem.detail, gone: true }, problem.status);
    }
    await resetPage(ctx, { username: link.value.username, clearFactors: link.value.clearFactors });
  });

  routes.post(
    '/auth/reset',
    {
      summary: "Set a new password with an operator's reset link (`l2 users reset`)",
      description:
        'The link is single-use and lives one hour. Every token of the account is revoked (L1 servers are told); a ' +
        'link made with `--clear-factors` also removes the second factor and the passkeys. A browser posts the page ' +
        'of the link back to itself, the token staying in the link.',
      request: body(security.ResetRequest),
      responses: {
        200: json(security.ResetDone, 'Set; every token of the account revoked'),
        303: { description: 'Form post: redirected to /login?reset=1' },
      },
      refusals: [CSRF_ERRORS, ...JSON_BODY, RESET_ERRORS],
    },
    async (ctx) => {
      await checkFormOfAnyViewer(ctx, deps);
      return formOrJson(
        ctx,
        (problem) =>
          problem.code === 'gone'
            ? resetPage(ctx, { error: problem.detail, gone: true }, problem.status)
            : resetPage(ctx, { error: problem.detail }, problem.status),
        async () => {
          // A browser posts the link's page to itself: the token is in the query, never in the page.
          const fromQuery = typeof ctx.query.token === 'string' ? { token: ctx.query.token } : {};
          const input = validateBody(ctx, security.ResetRequest, {
            ...(ctx.request.body as Record<string, unknown> | undefined),
            ...fromQuery,
          });
          const result = await useCases.resetPassword.execute({
            token: input.token,
            newPassword: input.new_password,
            address: requestAddress(ctx),
            clientAddress: clientAddress(ctx),
          });
          if (!result.ok) throw RESET_ERRORS.problem(result.error);
          if (isFormPost(ctx)) return seeOther(ctx, '/login?reset=1');
          ctx.body = resetDoneJson(result.value);
        },
      );
    },
  );
}
