import type { HttpDependencies } from '../dependencies.js';
import { NOT_ACCEPTABLE } from '../errors/edge-errors.js';
import { json, negotiated } from '../openapi-docs.js';
import { renderPage, safeNextPath, seeOther } from '../pages.js';
import { viewer } from '../request-auth.js';
import { respond } from '../respond.js';
import { PAGE, type RouteTable } from '../route-table.js';
import { serviceJson } from '../../shared/presenters/service-presenters.js';
import { ServiceResponse } from '../../shared/service-schemas.js';

export function pagesRoutes(routes: RouteTable, deps: HttpDependencies): void {
  routes.get(
    '/',
    {
      summary: 'The service: name, version, l2_server and live statistics',
      description: negotiated,
      responses: { 200: json(ServiceResponse, 'The service') },
      refusals: [NOT_ACCEPTABLE],
    },
    async (ctx) => {
      const stats = await deps.useCases.getStatistics.execute();
      await respond(ctx, {
        html: async () =>
          renderPage(ctx, deps, 'home', { title: 'L2', stats, readme: await deps.readmeHtml() }),
        json: () => serviceJson(deps.settings.version, deps.settings.publicUrl, stats),
      });
    },
  );

  for (const [path, template, title] of [
    ['/login', 'login', 'Log in'],
    ['/register', 'register', 'Register'],
  ] as const) {
    routes.get(path, PAGE, async (ctx) => {
      // Signed in already: the form only when a client asked for a fresh sign-in (prompt=login, max_age; API.md §2.5).
      const again = template === 'login' && ctx.query.again === '1';
      if (!again && (await viewer(ctx, deps))) return seeOther(ctx, '/');
      // After a reset link was used, the login page says so.
      const notice =
        template === 'login' && ctx.query.reset === '1'
          ? 'Your new password is set and every session of the account ended. Sign in with it.'
          : undefined;
      await renderPage(ctx, deps, template, {
        title,
        username: '',
        next: safeNextPath(ctx.query.next),
        notice,
      });
    });
  }
}
