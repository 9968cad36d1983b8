import type Router from '@koa/router';
import type { HttpDependencies } from '../dependencies.js';
import { renderPage, safeNextPath, seeOther } from '../pages.js';
import { viewer } from '../request-auth.js';
import { respond } from '../respond.js';

export function pagesRoutes(router: Router, deps: HttpDependencies): void {
  router.get('/', async (ctx) => {
    const stats = await deps.useCases.getStatistics.execute();
    await respond(ctx, {
      html: () => renderPage(ctx, deps, 'home', { title: 'L2', stats, readme: deps.readmeHtml }),
      json: () => ({ name: 'l2', version: deps.settings.version, l2_server: deps.settings.publicUrl, stats }),
    });
  });

  for (const [path, template, title] of [
    ['/login', 'login', 'Log in'],
    ['/register', 'register', 'Register'],
  ] as const) {
    router.get(path, async (ctx) => {
      if (await viewer(ctx, deps)) return seeOther(ctx, '/');
      await renderPage(ctx, deps, template, { title, username: '', next: safeNextPath(ctx.query.next) });
    });
  }
}
