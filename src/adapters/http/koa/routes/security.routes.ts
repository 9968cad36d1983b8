// What protects an account (docs/accounts.md): two-step sign-in, recovery codes and passkeys, for API clients (bearer
// or cookie + CSRF) and for the browser (the Account page). Every change asks for the current password or a passkey.
import type { Context } from 'koa';
import type { Asker } from '../../../../application/use-cases/security/asker.js';
import type { SecurityError } from '../../../../application/use-cases/security/security-errors.js';
import { qrCodeDataUrl } from '../../../views/qr-code.js';
import { renderAccountPage } from '../account-page.js';
import { confirmedPost, type AccountAsker } from '../confirmed-post.js';
import type { HttpDependencies } from '../dependencies.js';
import { CONFIRMATION, SECURITY_ERRORS } from '../errors/security-errors.js';
import { json, SESSION, SESSION_WRITE, signedIn } from '../openapi-docs.js';
import { formOrJson, isFormPost, renderPage, seeOther } from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { requireSession } from '../request-auth.js';
import type { RouteTable } from '../route-table.js';
import {
  accountSecurityJson,
  ceremonyOptionsJson,
  PASSKEY_REMOVED,
  passkeyJson,
  recoveryCodesJson,
  totpDisabledJson,
  totpEnabledJson,
  totpSetupJson,
} from '../../shared/presenters/security-presenters.js';
import * as security from '../../shared/security-schemas.js';

/** Who asks for a change of what protects the account, from where, and how they confirmed it is them. */
const confirmed = (
  asker: AccountAsker,
  body: { current_password?: string | undefined; passkey?: unknown },
): Asker => ({
  ...asker,
  confirmation:
    body.current_password !== undefined ? { password: body.current_password } : { passkey: body.passkey },
});

const refusedWith = (...types: SecurityError['type'][]) => SECURITY_ERRORS.only(...CONFIRMATION, ...types);

export function securityRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases } = deps;

  /** A refused form shows the Account page again with the message (never what was typed in a password field). */
  const showAccount = (ctx: Context) => (problem: HttpProblem) =>
    renderAccountPage(ctx, deps, { error: problem.detail }, problem.status);

  /** The page that shows recovery codes: the one page that ever holds them. */
  const showRecoveryCodes = (ctx: Context, codes: readonly string[], first: boolean) =>
    renderPage(ctx, deps, 'recovery-codes', { title: 'Your recovery codes', codes, first });

  routes.get(
    '/auth/security',
    {
      summary:
        'What protects the account: two-step sign-in, recovery codes left, passkeys, and the latest changes',
      security: signedIn,
      responses: { 200: json(security.AccountSecurity, 'The account’s security and history (newest first)') },
      refusals: [...SESSION],
    },
    async (ctx) => {
      const view = await useCases.getAccountSecurity.execute(await requireSession(ctx, deps));
      if (!view.ok) throw SECURITY_ERRORS.problem(view.error);
      ctx.body = accountSecurityJson(view.value);
    },
  );

  // ---- two-step sign-in (TOTP) ----

  const SETUP_ERRORS = SECURITY_ERRORS.only('forbidden', 'already_enabled', 'invalid_credentials');
  routes.post(
    '/auth/totp/setup',
    {
      summary:
        'Start turning two-step sign-in on: a new secret for the authenticator app (nothing changes yet)',
      description:
        'The secret is shown this once (a browser gets a page with its QR code); POST /auth/totp with a code of the ' +
        'app turns it on.',
      security: signedIn,
      responses: { 200: json(security.TotpSetup, 'The secret and the otpauth URI of its QR code') },
      refusals: [...SESSION_WRITE, SETUP_ERRORS],
    },
    (ctx) =>
      formOrJson(ctx, showAccount(ctx), async () => {
        const result = await useCases.beginTotpEnrolment.execute(await requireSession(ctx, deps));
        if (!result.ok) throw SETUP_ERRORS.problem(result.error);
        const { secret, uri } = result.value;
        if (!isFormPost(ctx)) {
          ctx.body = totpSetupJson(result.value);
          return;
        }
        await renderPage(ctx, deps, 'totp-setup', {
          title: 'Turn on two-step sign-in',
          secret: secret.match(/.{1,4}/g)?.join(' ') ?? secret,
          qrCode: await qrCodeDataUrl(uri),
          shown: true,
        });
      }),
  );

  /** A refused confirmation shows the set-up form again, without the secret: it was shown once. */
  const showSetupAgain = (ctx: Context) => (problem: HttpProblem) =>
    renderPage(
      ctx,
      deps,
      'totp-setup',
      { title: 'Turn on two-step sign-in', error: problem.detail, shown: false },
      problem.status,
    );

  confirmedPost(
    routes,
    deps,
    '/auth/totp',
    {
      summary:
        'Turn two-step sign-in on with a code of the app just set up; answers ten recovery codes (shown once) ' +
        "and ends the account's other sessions",
      body: security.EnableTotpRequest,
      ok: [200, security.TotpEnabled, 'On; the recovery codes, shown this once'],
      redirect: 'never: a form gets the page of its recovery codes',
      refusals: [refusedWith('invalid_request', 'already_enabled')],
    },
    async (ctx, asker, input) => {
      const result = await useCases.enableTotp.execute({ ...confirmed(asker, input), code: input.code });
      if (!result.ok) throw SECURITY_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return showRecoveryCodes(ctx, result.value.recoveryCodes, true);
      ctx.body = totpEnabledJson(result.value);
    },
    showSetupAgain,
  );

  confirmedPost(
    routes,
    deps,
    '/auth/totp/disable',
    {
      summary: 'Turn two-step sign-in off (its recovery codes go with it); the password still signs in',
      body: security.ConfirmRequest,
      ok: [200, security.TotpDisabled, 'Off'],
      redirect: 'Form post: redirected to /account',
      refusals: [refusedWith()],
    },
    async (ctx, asker, input) => {
      const result = await useCases.disableTotp.execute(confirmed(asker, input));
      if (!result.ok) throw SECURITY_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, '/account?done=totp-off');
      ctx.body = totpDisabledJson(result.value.changed);
    },
    showAccount,
  );

  confirmedPost(
    routes,
    deps,
    '/auth/recovery-codes',
    {
      summary: 'Ten new recovery codes (shown once); the old ones stop working',
      body: security.ConfirmRequest,
      ok: [200, security.RecoveryCodes, 'The new codes, shown this once'],
      redirect: 'never: a form gets the page of its recovery codes',
      refusals: [refusedWith('not_enabled')],
    },
    async (ctx, asker, input) => {
      const result = await useCases.regenerateRecoveryCodes.execute(confirmed(asker, input));
      if (!result.ok) throw SECURITY_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return showRecoveryCodes(ctx, result.value.recoveryCodes, false);
      ctx.body = recoveryCodesJson(result.value.recoveryCodes);
    },
    showAccount,
  );

  // ---- passkeys ----

  const REGISTRATION_ERRORS = SECURITY_ERRORS.only('forbidden', 'too_many_passkeys');
  routes.post(
    '/auth/passkeys/options',
    {
      summary: 'Options for adding a passkey: a challenge for this account (single-use, five minutes)',
      description: 'Send what `navigator.credentials.create()` gives as `response` to POST /auth/passkeys.',
      security: signedIn,
      responses: { 200: json(security.CeremonyOptions, 'The options for navigator.credentials.create()') },
      refusals: [...SESSION_WRITE, REGISTRATION_ERRORS],
    },
    async (ctx) => {
      const result = await useCases.startPasskeyRegistration.execute(await requireSession(ctx, deps));
      if (!result.ok) throw REGISTRATION_ERRORS.problem(result.error);
      ctx.body = ceremonyOptionsJson(result.value);
    },
  );

  confirmedPost(
    routes,
    deps,
    '/auth/passkeys',
    {
      summary: 'Add the passkey the browser made, under a name',
      body: security.AddPasskeyRequest,
      ok: [201, security.PasskeyJson, 'Added'],
      redirect: 'Form post: redirected to /account',
      refusals: [refusedWith('invalid_request', 'challenge_expired', 'passkey_exists', 'too_many_passkeys')],
    },
    async (ctx, asker, input) => {
      const result = await useCases.addPasskey.execute({
        ...confirmed(asker, input),
        name: input.name,
        response: input.response,
      });
      if (!result.ok) throw SECURITY_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, '/account?done=passkey-added');
      ctx.status = 201;
      ctx.body = passkeyJson(result.value);
    },
    showAccount,
  );

  confirmedPost(
    routes,
    deps,
    '/auth/passkeys/:id/remove',
    {
      summary: 'Remove one of your passkeys; the password still signs in',
      body: security.ConfirmRequest,
      params: security.PasskeyParam,
      ok: [200, security.PasskeyRemoved, 'Removed'],
      redirect: 'Form post: redirected to /account',
      refusals: [refusedWith('not_found')],
    },
    async (ctx, asker, input) => {
      const result = await useCases.removePasskey.execute({
        ...confirmed(asker, input),
        id: String(ctx.params.id),
      });
      if (!result.ok) throw SECURITY_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, '/account?done=passkey-removed');
      ctx.body = PASSKEY_REMOVED;
    },
    showAccount,
  );
}
