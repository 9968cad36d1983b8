// Who follows a person, as they decide it (API.md §4.3): their follow requests — listed, accepted, rejected — and
// removing a follower; from the API or their pages. The followers page itself is activitypub.routes.ts's.
import type { Context } from 'koa';
import { z } from 'zod';
import type { FollowRequestDecision } from '../../../../domain/follow-request.js';
import type { HttpDependencies } from '../dependencies.js';
import { AUTHENTICATION } from '../errors/account-errors.js';
import { JSON_BODY, NOT_ACCEPTABLE, QUERY_ERRORS } from '../errors/edge-errors.js';
import { FOLLOWER_ACTION_ERRORS, OWN_FOLLOWERS_ERRORS } from '../errors/follower-errors.js';
import { cursorRequest, pageLink } from '../listing.js';
import { body, json, listParams, negotiated, SESSION_WRITE, signedIn, userParam } from '../openapi-docs.js';
import { formOrJson, isFormPost, renderPage, seeOther } from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { requireAuth, requireSession, viewer } from '../request-auth.js';
import { respond } from '../respond.js';
import type { RouteTable } from '../route-table.js';
import { validateBody } from '../validate.js';
import * as schemas from '../../shared/follow-request-schemas.js';
import {
  followRequestDecidedJson,
  followRequestListJson,
} from '../../shared/presenters/follow-request-presenters.js';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';

const requestParams = z.object({
  username: z.string().openapi({ example: 'alice' }),
  id: z.string().openapi({ description: 'The request’s id, from the list' }),
});

/** A personal list: no shared cache may keep it, and a cache keys it on who asks. */
function personalJson(ctx: Context): void {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.vary('Cookie');
  ctx.vary('Authorization');
}

export function followRequestRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings } = deps;
  const listPath = (username: string) => `/users/${username}/follow_requests`;

  /** The page of the user's requests, as `session` may see it (a refused one throws its problem). */
  const renderRequestsPage = async (
    ctx: Context,
    session: AuthenticatedToken,
    extra: { readonly error?: string } = {},
    status = 200,
  ) => {
    const result = await useCases.listFollowRequests.execute({
      asker: session.claims,
      username: String(ctx.params.username),
      page: cursorRequest(ctx),
    });
    if (!result.ok) throw OWN_FOLLOWERS_ERRORS.problem(result.error);
    const username = session.claims.username;
    await renderPage(
      ctx,
      deps,
      'follow-requests',
      {
        title: 'Follow requests',
        username,
        list: followRequestListJson(result.value, pageLink(ctx, settings.publicUrl)),
        ...extra,
      },
      status,
    );
  };

  routes.get(
    '/users/:username/follow_requests',
    {
      summary: 'The follow requests waiting for the user’s decision, newest first (the user themself only)',
      description: negotiated,
      security: signedIn,
      request: { params: userParam, query: listParams },
      responses: { 200: json(schemas.FollowRequestList, 'A page of requests') },
      refusals: [NOT_ACCEPTABLE, QUERY_ERRORS, AUTHENTICATION, OWN_FOLLOWERS_ERRORS],
    },
    async (ctx) => {
      await respond(ctx, {
        json: async () => {
          const session = await requireAuth(ctx, deps);
          const result = await useCases.listFollowRequests.execute({
            asker: session.claims,
            username: String(ctx.params.username),
            page: cursorRequest(ctx),
          });
          if (!result.ok) throw OWN_FOLLOWERS_ERRORS.problem(result.error);
          personalJson(ctx);
          return followRequestListJson(result.value, pageLink(ctx, settings.publicUrl));
        },
        html: async () => {
          const session = await viewer(ctx, deps);
          if (!session) return seeOther(ctx, `/login?next=${encodeURIComponent(ctx.path)}`);
          await renderRequestsPage(ctx, session);
        },
      });
    },
  );

  /** A refused decision from the page shows the page again with its message. */
  const showRequestsPage = (ctx: Context) => async (problem: HttpProblem) => {
    const session = await viewer(ctx, deps);
    if (!session) throw problem;
    await renderRequestsPage(ctx, session, { error: problem.detail }, problem.status);
  };

  const decisionRoute = (verb: 'accept' | 'reject', decision: FollowRequestDecision) =>
    routes.post(
      `/users/:username/follow_requests/:id/${verb}`,
      {
        summary:
          verb === 'accept'
            ? 'Accept a follow request: the actor becomes a follower and an Accept of their Follow is queued'
            : 'Reject a follow request: it is removed and a Reject of their Follow is queued',
        security: signedIn,
        request: { params: requestParams },
        responses: {
          200: json(schemas.FollowRequestDecided, 'The request, decided'),
          303: { description: 'Form post: redirected to the follow requests page' },
        },
        refusals: [...SESSION_WRITE, ...JSON_BODY, FOLLOWER_ACTION_ERRORS],
      },
      (ctx) =>
        formOrJson(ctx, showRequestsPage(ctx), async () => {
          const session = await requireSession(ctx, deps);
          const result = await useCases.decideFollowRequest.execute({
            asker: session.claims,
            username: String(ctx.params.username),
            id: String(ctx.params.id),
            decision,
          });
          if (!result.ok) throw FOLLOWER_ACTION_ERRORS.problem(result.error);
          if (isFormPost(ctx)) return seeOther(ctx, listPath(result.value.username));
          ctx.body = followRequestDecidedJson(result.value, decision);
        }),
    );
  decisionRoute('accept', 'accepted');
  decisionRoute('reject', 'rejected');

  routes.post(
    '/users/:username/followers/remove',
    {
      summary:
        'Remove a follower: they leave the followers and a Reject of their Follow is queued to their inbox',
      security: signedIn,
      request: { params: userParam, ...body(schemas.RemoveFollowerRequest) },
      responses: {
        200: json(schemas.FollowerRemoved, 'They no longer follow'),
        303: { description: 'Form post: redirected to the followers page' },
      },
      refusals: [...SESSION_WRITE, ...JSON_BODY, FOLLOWER_ACTION_ERRORS],
    },
    (ctx) =>
      formOrJson(
        ctx,
        // The followers page has no field to show again: a refused removal is its error page.
        async (problem) => {
          throw problem;
        },
        async () => {
          const session = await requireSession(ctx, deps);
          const { actor } = validateBody(ctx, schemas.RemoveFollowerRequest);
          const result = await useCases.removeFollower.execute({
            asker: session.claims,
            username: String(ctx.params.username),
            actor,
          });
          if (!result.ok) throw FOLLOWER_ACTION_ERRORS.problem(result.error);
          if (isFormPost(ctx)) return seeOther(ctx, `/users/${result.value.username}/followers`);
          ctx.body = { actor: result.value.actor, removed: true };
        },
      ),
  );
}
