// Account management (API.md §1): change the password, see and end sessions, delete the account — for API clients
// (bearer or cookie + CSRF) and for the browser (the Account and Sessions pages).
import type { Context } from 'koa';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';
import { noticeOf, renderAccountPage } from '../account-page.js';
import {
  deletedAccountJson,
  revokedJson,
  sessionListJson,
} from '../../shared/presenters/account-presenters.js';
import type { HttpDependencies } from '../dependencies.js';
import {
  CHANGE_PASSWORD_ERRORS,
  DELETE_ACCOUNT_ERRORS,
  REVOKE_SESSION_ERRORS,
} from '../errors/account-errors.js';
import { BODY_ERRORS } from '../errors/edge-errors.js';
import { SCOPED_TOKEN } from '../errors/shared-refusals.js';
import { json, ownListDoc, SESSION_WRITE, signedIn } from '../openapi-docs.js';
import { isFormPost, renderPage, seeOther } from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { confirmedPost } from '../confirmed-post.js';
import { requireSession, viewer } from '../request-auth.js';
import { respond } from '../respond.js';
import { PAGE, type RouteTable } from '../route-table.js';
import * as schemas from '../../shared/schemas.js';
import { clearTokenCookie } from '../session-cookies.js';
import { LOG_UNSIGNABLE } from '../errors/transparency-errors.js';

export function accountRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings } = deps;

  /** A signed-out browser is sent to log in, and back here afterwards. */
  const signedInOrLogin = async (ctx: Context): Promise<AuthenticatedToken | null> => {
    const session = await viewer(ctx, deps);
    if (!session) seeOther(ctx, `/login?next=${encodeURIComponent(ctx.path)}`);
    return session;
  };

  const renderAccount = (
    ctx: Context,
    extra: { error?: string; notice?: string | undefined },
    status = 200,
  ) => renderAccountPage(ctx, deps, extra, status);

  /** A refused account form shows the Account page again with the message (never the passwords typed). */
  const showAccountForm = (ctx: Context) => async (refusal: HttpProblem) => {
    if (!(await viewer(ctx, deps))) throw refusal;
    await renderAccount(ctx, { error: refusal.detail }, refusal.status);
  };

  routes.get('/account', PAGE, async (ctx) => {
    if (!(await signedInOrLogin(ctx))) return;
    await renderAccount(ctx, { notice: noticeOf(ctx.query) });
  });

  // The password changes, or the account goes: a refused form shows the Account page again.
  confirmedPost(
    routes,
    deps,
    '/auth/password',
    {
      summary: 'Change the password; every other token of the user is revoked in the same write',
      body: schemas.ChangePasswordRequest,
      ok: [200, schemas.RevokedResponse, 'Changed; the asking session stays valid'],
      redirect: 'Form post: redirected to /account',
      refusals: [CHANGE_PASSWORD_ERRORS],
    },
    async (ctx, asker, input) => {
      const { current_password: currentPassword, new_password: newPassword } = input;
      const { session, clientAddress } = asker;
      const result = await useCases.changePassword.execute({
        session,
        clientAddress,
        currentPassword,
        newPassword,
      });
      if (!result.ok) throw CHANGE_PASSWORD_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, '/account?changed=1');
      ctx.body = revokedJson(result.value.revoked);
    },
    showAccountForm,
  );

  routes.get(
    '/auth/sessions',
    ownListDoc(
      "The caller's unexpired, unrevoked tokens (sessions and scoped tokens), newest first",
      schemas.SessionList,
      'Sessions',
    ),
    async (ctx) => {
      const listFor = async (session: AuthenticatedToken) => {
        const result = await useCases.listSessions.execute(session);
        if (!result.ok) throw SCOPED_TOKEN.problem(result.error);
        return result.value;
      };
      await respond(ctx, {
        html: async () => {
          const session = await signedInOrLogin(ctx);
          if (session) {
            const { items } = sessionListJson(await listFor(session));
            await renderPage(ctx, deps, 'sessions', { title: 'Sessions', items });
          }
        },
        json: async () => sessionListJson(await listFor(await requireSession(ctx, deps))),
      });
    },
  );

  routes.post(
    '/auth/sessions/:jti/revoke',
    {
      summary: 'End one session (with the scoped tokens it made) or one scoped token, by its jti',
      security: signedIn,
      request: { params: schemas.JtiParam },
      responses: {
        200: json(schemas.RevokedResponse, 'Revoked; notices to L1 servers are queued'),
        303: { description: 'Form post: redirected to /auth/sessions (to / when it was this session)' },
      },
      refusals: [...SESSION_WRITE, BODY_ERRORS, REVOKE_SESSION_ERRORS],
    },
    async (ctx) => {
      const session = await requireSession(ctx, deps);
      const jti = String(ctx.params.jti);
      const result = await useCases.revokeSession.execute({ session, jti });
      if (!result.ok) throw REVOKE_SESSION_ERRORS.problem(result.error);
      const ownSession = jti === session.claims.jti;
      if (ownSession) clearTokenCookie(ctx, settings.cookies);
      if (isFormPost(ctx)) return seeOther(ctx, ownSession ? '/' : '/auth/sessions');
      ctx.body = revokedJson(result.value.revoked);
    },
  );

  confirmedPost(
    routes,
    deps,
    '/auth/delete-account',
    {
      summary:
        'Delete the account: every token revoked, every live asset deleted with its signed Delete, the actor’s ' +
        'Delete sent to followers; the name stays taken',
      body: schemas.DeleteAccountRequest,
      ok: [200, schemas.DeletedAccount, 'Deleted'],
      redirect: 'Form post: cookie cleared, redirected to /',
      refusals: [DELETE_ACCOUNT_ERRORS, LOG_UNSIGNABLE],
    },
    async (ctx, asker, input) => {
      const { session, clientAddress } = asker;
      const result = await useCases.deleteAccount.execute({
        session,
        clientAddress,
        password: input.password,
      });
      if (!result.ok) throw DELETE_ACCOUNT_ERRORS.problem(result.error);
      clearTokenCookie(ctx, settings.cookies);
      if (isFormPost(ctx)) return seeOther(ctx, '/');
      ctx.body = deletedAccountJson(asker.session.claims.username, result.value);
    },
    showAccountForm,
  );
}
