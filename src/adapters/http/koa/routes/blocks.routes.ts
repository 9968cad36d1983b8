// A person's blocks of remote actors (API.md §4.3 "Blocking an actor"): listed, added and removed by the user
// themself — from the API or the blocks page, whose forms work without JavaScript.
import type { Context } from 'koa';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';
import * as blockSchemas from '../../shared/block-schemas.js';
import {
  actorBlockJson,
  actorBlockListJson,
  unblockedJson,
} from '../../shared/presenters/block-presenters.js';
import type { HttpDependencies } from '../dependencies.js';
import { BLOCK_ERRORS, BLOCK_LIST_ERRORS, UNBLOCK_ERRORS } from '../errors/block-errors.js';
import { JSON_BODY, NOT_ACCEPTABLE, QUERY_ERRORS } from '../errors/edge-errors.js';
import { AUTHENTICATION } from '../errors/account-errors.js';
import { cursorRequest, pageLink } from '../listing.js';
import { body, json, listParams, negotiated, SESSION_WRITE, signedIn, userParam } from '../openapi-docs.js';
import { formOrJson, isFormPost, renderPage, seeOther } from '../pages.js';
import { HttpProblem } from '../problem.js';
import { requireAuth, requireSession, viewer } from '../request-auth.js';
import { respond } from '../respond.js';
import { PAGE, type RouteTable } from '../route-table.js';
import { validateBody } from '../validate.js';
import { z } from 'zod';

const TITLE = 'Blocked actors';

const blockParams = userParam.extend({ id: z.string().openapi({ example: 'a1b2c3' }) });

export function blocksRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings } = deps;
  const pathOf = (ctx: Context) => `/users/${encodeURIComponent(String(ctx.params.username))}/blocks`;

  /** A page of the asker's blocks, as the JSON answer and the page show them. */
  const listed = async (ctx: Context, asker: AuthenticatedToken) => {
    const result = await useCases.listActorBlocks.execute({
      asker: asker.claims,
      username: String(ctx.params.username),
      page: cursorRequest(ctx),
    });
    if (!result.ok) throw BLOCK_LIST_ERRORS.problem(result.error);
    return actorBlockListJson(result.value, pageLink(ctx, settings.publicUrl));
  };

  /** The blocks page: a form to block an actor, and each block with its Unblock form. */
  const renderBlocks = async (
    ctx: Context,
    asker: AuthenticatedToken,
    extra: { error?: string; actor?: string } = {},
    status = 200,
  ) => {
    const list = await listed(ctx, asker);
    await renderPage(
      ctx,
      deps,
      'blocks',
      { title: TITLE, action: pathOf(ctx), items: list.items, list, actor: '', ...extra },
      status,
    );
  };

  /** A refused block or unblock form shows the page again with the message and the name typed. */
  const showBlocksForm = (ctx: Context) => async (problem: HttpProblem) => {
    const signedIn = await viewer(ctx, deps);
    if (!signedIn) throw problem;
    const typed = (ctx.request.body as Record<string, unknown> | undefined)?.actor;
    await renderBlocks(
      ctx,
      signedIn,
      { error: problem.detail, actor: typeof typed === 'string' ? typed : '' },
      problem.status,
    );
  };

  routes.get(
    '/users/:username/blocks',
    {
      summary: 'The actors the user blocks, newest first (the user themself only)',
      description: negotiated,
      security: signedIn,
      request: { params: userParam, query: listParams },
      responses: { 200: json(blockSchemas.ActorBlockList, 'A page') },
      refusals: [NOT_ACCEPTABLE, QUERY_ERRORS, AUTHENTICATION, BLOCK_LIST_ERRORS],
    },
    async (ctx) => {
      await respond(ctx, {
        html: async () => {
          const signedIn = await viewer(ctx, deps);
          if (!signedIn) return seeOther(ctx, `/login?next=${encodeURIComponent(ctx.path)}`);
          await renderBlocks(ctx, signedIn);
        },
        json: async () => {
          const page = await listed(ctx, await requireAuth(ctx, deps));
          // One person's list: no shared cache may keep it.
          ctx.set('Cache-Control', 'private, no-store');
          return page;
        },
      });
    },
  );

  routes.post(
    '/users/:username/blocks',
    {
      summary:
        'Block an actor, by URL or @user@host: it stops following, is sent a Block, and cannot follow again',
      security: signedIn,
      request: { params: userParam, ...body(blockSchemas.BlockRequest) },
      responses: {
        200: json(blockSchemas.ActorBlockJson, 'Already blocked: the block made before'),
        201: json(blockSchemas.ActorBlockJson, 'Blocked'),
        303: { description: 'Form post: redirected to /users/{username}/blocks' },
      },
      refusals: [...SESSION_WRITE, ...JSON_BODY, BLOCK_ERRORS],
    },
    (ctx) =>
      formOrJson(ctx, showBlocksForm(ctx), async () => {
        const session = await requireSession(ctx, deps);
        const input = validateBody(ctx, blockSchemas.BlockRequest);
        const result = await useCases.blockActor.execute({
          asker: session.claims,
          username: String(ctx.params.username),
          actor: input.actor,
        });
        if (!result.ok) throw BLOCK_ERRORS.problem(result.error);
        if (isFormPost(ctx)) return seeOther(ctx, pathOf(ctx));
        ctx.status = result.value.outcome === 'created' ? 201 : 200;
        ctx.body = actorBlockJson(result.value.block);
      }),
  );

  const unblock = async (ctx: Context) => {
    const session = await requireSession(ctx, deps);
    const result = await useCases.unblockActor.execute({
      asker: session.claims,
      username: String(ctx.params.username),
      id: String(ctx.params.id),
    });
    if (!result.ok) throw UNBLOCK_ERRORS.problem(result.error);
    if (isFormPost(ctx)) return seeOther(ctx, pathOf(ctx));
    ctx.body = unblockedJson(result.value);
  };

  routes.delete(
    '/users/:username/blocks/:id',
    {
      summary: 'Unblock an actor: the block is removed and an Undo of the Block is sent to it',
      security: signedIn,
      request: { params: blockParams },
      responses: { 200: json(blockSchemas.UnblockedResponse, 'Unblocked') },
      refusals: [...SESSION_WRITE, UNBLOCK_ERRORS],
    },
    unblock,
  );

  // HTML forms cannot send DELETE: the blocks page posts with a hidden _method.
  routes.post('/users/:username/blocks/:id', PAGE, async (ctx) => {
    const method = (ctx.request.body as Record<string, unknown> | undefined)?._method;
    if (method !== 'DELETE')
      throw new HttpProblem(400, 'invalid_request', '_method: use DELETE.', {
        errors: [{ path: '_method', message: 'Use DELETE.' }],
      });
    return formOrJson(ctx, showBlocksForm(ctx), () => unblock(ctx));
  });
}
