// Moving out (API.md §4.3): where the account moved, moving it, cancelling the move — for API clients (bearer or
// cookie + CSRF) and for the browser's move page (linked from the Account page). /auth/* is never stored by a cache.
import type { Context } from 'koa';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';
import { confirmedPost } from '../confirmed-post.js';
import type { HttpDependencies } from '../dependencies.js';
import { BODY_ERRORS, NOT_ACCEPTABLE } from '../errors/edge-errors.js';
import { MOVE_ERRORS, MOVE_STATE_ERRORS } from '../errors/move-errors.js';
import { json, SESSION, SESSION_WRITE, signedIn } from '../openapi-docs.js';
import { isFormPost, renderPage, seeOther } from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { requireSession, viewer } from '../request-auth.js';
import { respond } from '../respond.js';
import type { RouteTable } from '../route-table.js';
import * as moveSchemas from '../../shared/move-schemas.js';
import { moveMadeJson, moveStateJson } from '../../shared/presenters/move-presenters.js';

const PAGE_PATH = '/auth/move';

export function moveRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings } = deps;

  const stateOf = async (session: AuthenticatedToken) => {
    const state = await useCases.getMoveState.execute(session);
    if (!state.ok) throw MOVE_STATE_ERRORS.problem(state.error);
    return moveStateJson(state.value);
  };

  /** The move page: the form to move, or where the account moved with the form to cancel. */
  const renderMovePage = async (
    ctx: Context,
    session: AuthenticatedToken,
    extra: { readonly error?: string; readonly target?: string } = {},
    status = 200,
  ) =>
    renderPage(
      ctx,
      deps,
      'move',
      {
        title: 'Move your account',
        state: await stateOf(session),
        handle: `@${session.claims.username}@${settings.webfingerDomain}`,
        actor: deps.urls.actor(session.claims.username),
        ...extra,
      },
      status,
    );

  /** A refused move form shows the page again with the message and the target typed (never the password). */
  const showMoveForm = (ctx: Context) => async (refusal: HttpProblem) => {
    const session = await viewer(ctx, deps);
    if (!session) throw refusal;
    const typed = (ctx.request.body as Record<string, unknown> | undefined)?.target;
    await renderMovePage(
      ctx,
      session,
      { error: refusal.detail, ...(typeof typed === 'string' ? { target: typed } : {}) },
      refusal.status,
    );
  };

  routes.get(
    PAGE_PATH,
    {
      summary: 'Where the account moved (moved_to, moved_at) and the aliases it lists',
      security: signedIn,
      responses: { 200: json(moveSchemas.MoveState, 'The move state') },
      refusals: [NOT_ACCEPTABLE, ...SESSION, MOVE_STATE_ERRORS],
    },
    async (ctx) => {
      await respond(ctx, {
        html: async () => {
          const session = await viewer(ctx, deps);
          if (!session) return seeOther(ctx, `/login?next=${encodeURIComponent(ctx.path)}`);
          await renderMovePage(ctx, session);
        },
        json: async () => stateOf(await requireSession(ctx, deps)),
      });
    },
  );

  confirmedPost(
    routes,
    deps,
    PAGE_PATH,
    {
      summary:
        'Move the followers to another account (its alsoKnownAs must list this actor): the actor shows movedTo, ' +
        'an Update and then a Move go to every follower server',
      body: moveSchemas.MoveRequest,
      ok: [200, moveSchemas.MoveMade, 'Moved'],
      redirect: 'Form post: redirected to /auth/move',
      refusals: [MOVE_ERRORS],
    },
    async (ctx, asker, input) => {
      const result = await useCases.moveAccount.execute({
        session: asker.session,
        clientAddress: asker.clientAddress,
        currentPassword: input.current_password,
        target: input.target,
      });
      if (!result.ok) throw MOVE_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, PAGE_PATH);
      ctx.body = moveMadeJson(result.value);
    },
    showMoveForm,
  );

  routes.post(
    `${PAGE_PATH}/cancel`,
    {
      summary:
        'Cancel the move: movedTo removed, an Update sent; not moved: nothing sent. The cool-down stays',
      security: signedIn,
      responses: {
        200: json(moveSchemas.MoveState, 'The move state after the cancel'),
        303: { description: 'Form post: redirected to /auth/move' },
      },
      refusals: [...SESSION_WRITE, BODY_ERRORS, MOVE_STATE_ERRORS],
    },
    async (ctx) => {
      const session = await requireSession(ctx, deps);
      const result = await useCases.cancelMove.execute(session);
      if (!result.ok) throw MOVE_STATE_ERRORS.problem(result.error);
      if (isFormPost(ctx)) return seeOther(ctx, PAGE_PATH);
      ctx.body = moveStateJson(result.value);
    },
  );
}
