import type Router from '@koa/router';
import type { HttpDependencies } from '../dependencies.js';
import { negotiate } from '../negotiate.js';
import { renderPage, safeNextPath, seeOther } from '../pages.js';
import { HttpProblem } from '../problem.js';
import { viewer } from '../request-auth.js';

export function pagesRoutes(router: Router, deps: HttpDependencies): void {
  router.get('/', async (ctx) => {
    ctx.vary('Accept');
    const representation = negotiate(ctx.get('Accept'), ['html', 'json']);
    if (!representation)
      throw new HttpProblem(406, 'not_acceptable', 'This resource is available as HTML or JSON.');
    const stats = await deps.useCases.getStatistics.execute();
    if (representation === 'html') {
      return renderPage(ctx, deps, 'home', { title: 'L2', stats, readme: deps.readmeHtml });
    }
    ctx.body = { name: 'l2', version: deps.settings.version, l2_server: deps.settings.publicUrl, stats };
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
