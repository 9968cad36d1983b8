import type { Context } from 'koa';
import type { AuthenticatedToken } from '../../../../application/services/authenticate-token.js';
import { attachCallbackUrl, normaliseL1Server, type L1ServerUrl } from '../../../../domain/l1-server.js';
import type { HttpDependencies } from '../dependencies.js';
import { ownListDoc, signedInPostDoc } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';
import { attachedJson, renderersJson, revokedJson } from '../../shared/presenters/account-presenters.js';
import * as schemas from '../../shared/schemas.js';
import { ATTACH_ERRORS, L1_SERVER_ERRORS } from '../errors/account-errors.js';
import type { Refusals } from '../errors/error-table.js';
import { SCOPED_TOKEN } from '../errors/shared-refusals.js';
import { respond } from '../respond.js';
import { formOrJson, isFormPost, renderPage, seeOther } from '../pages.js';
import type { HttpProblem } from '../problem.js';
import { requireAuth, requireSession, viewer } from '../request-auth.js';
import { validateBody } from '../validate.js';

const TITLE = 'Renderers';

export function renderersRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases } = deps;

  /** The caller's attachments, as the JSON answer and the page list them. */
  const listed = async (session: AuthenticatedToken) => {
    const result = await useCases.listRenderers.execute(session);
    if (!result.ok) throw SCOPED_TOKEN.problem(result.error);
    return renderersJson(result.value);
  };

  /** A refused attach or detach form shows the renderers page again with the message and the value entered. */
  const showRenderersPage = (ctx: Context) => async (problem: HttpProblem) => {
    const signedIn = await viewer(ctx, deps);
    if (!signedIn) throw problem;
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    await renderPage(
      ctx,
      deps,
      'renderers',
      {
        title: TITLE,
        error: problem.detail,
        items: (await listed(signedIn)).items,
        l1_server: typeof body.l1_server === 'string' ? body.l1_server : '',
      },
      problem.status,
    );
  };

  const l1ServerOf = (ctx: Context): L1ServerUrl => {
    const normalised = normaliseL1Server(validateBody(ctx, schemas.RendererRequest).l1_server);
    if (!normalised.ok) throw L1_SERVER_ERRORS.problem({ type: 'invalid_l1_server' });
    return normalised.value;
  };

  routes.get(
    '/renderers',
    // Any valid token authenticates; listing then refuses a scoped one.
    ownListDoc("The caller's attached L1 servers", schemas.RenderersResponse, 'Attachments'),
    async (ctx) => {
      await respond(ctx, {
        html: async () => {
          const signedIn = await viewer(ctx, deps);
          if (!signedIn) return seeOther(ctx, `/login?next=${encodeURIComponent('/renderers')}`);
          await renderPage(ctx, deps, 'renderers', { title: TITLE, items: (await listed(signedIn)).items });
        },
        json: async () => listed(await requireAuth(ctx, deps)),
      });
    },
  );

  /**
   * Attach and detach: a signed-in caller naming an L1 server, from a form or the API. A scoped token is refused
   * before the body is judged (403 whatever it sends), as on every other write.
   */
  const withL1Server =
    (run: (ctx: Context, session: AuthenticatedToken, l1Server: L1ServerUrl) => Promise<void>) =>
    (ctx: Context) =>
      formOrJson(ctx, showRenderersPage(ctx), async () => {
        const session = await requireSession(ctx, deps);
        await run(ctx, session, l1ServerOf(ctx));
      });

  /** Attach and detach take the same body and run for a signed-in caller, from a form or the API. */
  const rendererRoute = (
    path: string,
    doc: Omit<Parameters<typeof signedInPostDoc>[0], 'body' | 'refusals'>,
    run: Parameters<typeof withL1Server>[0],
    refusals: Refusals,
  ) =>
    routes.post(
      path,
      signedInPostDoc({ ...doc, body: schemas.RendererRequest, refusals: [L1_SERVER_ERRORS, refusals] }),
      withL1Server(run),
    );

  rendererRoute(
    '/renderers/attach',
    {
      summary: 'Create a token scoped to one L1 server',
      ok: [201, schemas.AttachResponse, 'Scoped token created'],
      redirect: 'Form post: redirected to `<l1_server>/auth/callback?token=<jwt>`',
    },
    async (ctx, session, l1Server) => {
      const result = await useCases.attachRenderer.execute({ session, l1Server });
      if (!result.ok) throw ATTACH_ERRORS.problem(result.error);
      const scoped = result.value;
      if (isFormPost(ctx)) {
        // The token leaves only in the Location header: never in a body, never in a page.
        ctx.set('Referrer-Policy', 'no-referrer');
        return seeOther(ctx, attachCallbackUrl(l1Server, scoped.token));
      }
      ctx.status = 201;
      ctx.body = attachedJson(scoped, l1Server);
    },
    ATTACH_ERRORS,
  );

  rendererRoute(
    '/renderers/detach',
    {
      summary: 'Revoke every scoped token for one L1 server and remove the attachment',
      redirect: 'Form post: redirected to /renderers',
      ok: [200, schemas.RevokedResponse, 'Detached'],
    },
    async (ctx, session, l1Server) => {
      const outcome = await useCases.detachRenderer.execute({ session, l1Server });
      if (!outcome.ok) throw SCOPED_TOKEN.problem(outcome.error);
      if (isFormPost(ctx)) return seeOther(ctx, '/renderers');
      ctx.body = revokedJson(outcome.value.revoked);
    },
    SCOPED_TOKEN,
  );
}
