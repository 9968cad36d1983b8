import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AuthenticatedToken } from '../../../../application/use-cases/authenticate-token.js';
import { attachCallbackUrl, normaliseL1Server, type L1ServerUrl } from '../../../../domain/l1-server.js';
import { assertNever } from '../../../../domain/result.js';
import type { HttpDependencies } from '../dependencies.js';
import { scopedTokenForbidden, tokenProblem } from '../error-status.js';
import { respond } from '../respond.js';
import { isFormPost, renderPage, seeOther } from '../pages.js';
import { HttpProblem } from '../problem.js';
import { requireAuth, viewer } from '../request-auth.js';
import { RendererRequest } from '../schemas.js';
import { validateBody } from '../validate.js';

const TITLE = 'Renderers';

export function renderersRoutes(router: Router, deps: HttpDependencies): void {
  const { useCases } = deps;

  const listItems = async (session: AuthenticatedToken) => {
    const result = await useCases.listRenderers.execute(session);
    if (!result.ok) throw scopedTokenForbidden();
    return result.value.map((a) => ({ l1_server: a.l1Server, attached_at: a.attachedAt.toISOString() }));
  };

  /** For a browser form, a failure shows the renderers page again with the message and the value entered. */
  const formAware = async (ctx: Context, handler: () => Promise<void>) => {
    try {
      await handler();
    } catch (error) {
      const signedIn = isFormPost(ctx) && error instanceof HttpProblem ? await viewer(ctx, deps) : null;
      if (!signedIn || !(error instanceof HttpProblem) || error.code === 'csrf_failed') throw error;
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      await renderPage(
        ctx,
        deps,
        'renderers',
        {
          title: TITLE,
          error: error.detail,
          items: await listItems(signedIn),
          l1_server: typeof body.l1_server === 'string' ? body.l1_server : '',
        },
        error.status,
      );
    }
  };

  const l1ServerOf = (ctx: Context): L1ServerUrl => {
    const normalised = normaliseL1Server(validateBody(ctx, RendererRequest).l1_server);
    if (!normalised.ok)
      throw new HttpProblem(400, 'invalid_request', 'l1_server: not a valid L1 server URL.');
    return normalised.value;
  };

  router.get('/renderers', async (ctx) => {
    await respond(ctx, {
      html: async () => {
        const signedIn = await viewer(ctx, deps);
        if (!signedIn) return seeOther(ctx, `/login?next=${encodeURIComponent('/renderers')}`);
        await renderPage(ctx, deps, 'renderers', { title: TITLE, items: await listItems(signedIn) });
      },
      json: async () => ({ items: await listItems(await requireAuth(ctx, deps)) }),
    });
  });

  router.post('/renderers/attach', (ctx) =>
    formAware(ctx, async () => {
      const session = await requireAuth(ctx, deps);
      const l1Server = l1ServerOf(ctx);
      const result = await useCases.attachRenderer.execute({ session, l1Server });
      if (!result.ok) {
        const error = result.error;
        switch (error.type) {
          case 'forbidden':
            throw new HttpProblem(403, 'forbidden', error.detail);
          case 'invalid_request':
            throw new HttpProblem(400, 'invalid_request', error.detail, {
              errors: [{ path: 'l1_server', message: error.detail }],
            });
          case 'token_revoked':
            throw tokenProblem(error);
          default:
            return assertNever(error);
        }
      }
      const scoped = result.value;
      if (isFormPost(ctx)) {
        // The token leaves only in the Location header: never in a body, never in a page.
        ctx.set('Referrer-Policy', 'no-referrer');
        return seeOther(ctx, attachCallbackUrl(l1Server, scoped.token));
      }
      ctx.status = 201;
      ctx.body = {
        access_token: scoped.token,
        token_type: 'Bearer',
        l1_server: l1Server,
        expires_at: scoped.expiresAt.toISOString(),
      };
    }),
  );

  router.post('/renderers/detach', (ctx) =>
    formAware(ctx, async () => {
      const session = await requireAuth(ctx, deps);
      const l1Server = l1ServerOf(ctx);
      const result = await useCases.detachRenderer.execute({ session, l1Server });
      if (!result.ok) throw scopedTokenForbidden();
      if (isFormPost(ctx)) return seeOther(ctx, '/renderers');
      ctx.body = { revoked: result.value.revoked };
    }),
  );
}
