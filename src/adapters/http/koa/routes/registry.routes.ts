// The registry's lists (API.md §3, §4.1): live assets, a tag's assets, the activity log, one activity.
import { z } from 'zod';
import { normaliseUsername } from '../../../../domain/user.js';
import type { HttpDependencies } from '../dependencies.js';
import { NOT_ACCEPTABLE } from '../errors/edge-errors.js';
import { ACTIVITY_ERRORS, OWNER_FILTER_ERRORS } from '../errors/registry-errors.js';
import { jsonOrActivityStreams, listDoc, listParams, negotiated } from '../openapi-docs.js';
import { PAGE, type RouteTable } from '../route-table.js';
import * as registrySchemas from '../../shared/registry-schemas.js';
import { cursorRequest, pageLink, singleQuery } from '../listing.js';
import { renderPage } from '../pages.js';
import {
  activityJson,
  activityListJson,
  assetListJson,
} from '../../shared/presenters/registry-presenters.js';
import { respond } from '../respond.js';
import { negotiate, type Representation } from '../../shared/negotiate.js';
import { AP_CONTENT_TYPE } from '../../content-types.js';

/** What GET /activities/{idx} offers, in the order respond() takes them (ties go to the first). */
const ACTIVITY_REPRESENTATIONS: readonly Representation[] = ['html', 'ap', 'json'];

export function registryRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings, urls } = deps;

  routes.get(
    '/registry',
    listDoc(
      'Live assets, newest first',
      registrySchemas.AssetList,
      listParams.extend({
        owner: z.string().optional().openapi({ description: "Only this user's assets" }),
        q: z.string().optional().openapi({ description: 'Name prefix (case-sensitive)' }),
      }),
      [OWNER_FILTER_ERRORS],
    ),
    async (ctx) => {
      const request = cursorRequest(ctx);
      const ownerParam = singleQuery(ctx, 'owner');
      const owner = ownerParam ? normaliseUsername(ownerParam) : null;
      if (owner && !owner.ok) throw OWNER_FILTER_ERRORS.problem({ type: 'invalid_owner' });
      const q = singleQuery(ctx, 'q') || undefined;
      const page = await useCases.listRegistry.execute(
        { ...(owner?.ok ? { owner: owner.value } : {}), ...(q ? { namePrefix: q } : {}) },
        request,
      );
      const json = () => assetListJson(page, urls, pageLink(ctx, settings.publicUrl));
      await respond(ctx, {
        html: () =>
          renderPage(ctx, deps, 'registry', {
            title: 'Registry',
            list: json(),
            owner: owner?.ok ? owner.value : '',
            q: q ?? '',
          }),
        json,
      });
    },
  );

  routes.get(
    '/tags/:tag',
    {
      ...listDoc(
        'Live assets carrying a tag (compared in any case), newest first; a tag nobody uses is an empty list',
        registrySchemas.AssetList,
      ),
      request: { params: z.object({ tag: z.string().openapi({ example: 'art' }) }), query: listParams },
    },
    async (ctx) => {
      const tag = String(ctx.params.tag).replace(/^#/, '');
      const page = await useCases.listRegistry.execute({ tag }, cursorRequest(ctx));
      const json = () => assetListJson(page, urls, pageLink(ctx, settings.publicUrl));
      await respond(ctx, {
        html: () => renderPage(ctx, deps, 'tag', { title: `#${tag}`, tag, list: json() }),
        json,
      });
    },
  );

  routes.get(
    '/activities',
    listDoc('The activity log, newest first', registrySchemas.ActivityList),
    async (ctx) => {
      const page = await useCases.listActivities.execute({}, cursorRequest(ctx));
      const json = () => activityListJson(page, urls, pageLink(ctx, settings.publicUrl));
      await respond(ctx, {
        html: () => renderPage(ctx, deps, 'activities', { title: 'Activities', list: json() }),
        json,
      });
    },
  );

  routes.get(
    '/activities/:idx',
    {
      summary: 'One activity',
      description: `${negotiated} application/activity+json gives the signed ActivityStreams document: the exact stored bytes, which are entry idx of the transparency log (GET /tlog/tile/entries/…, GET /activities/{idx}/proof).`,
      request: { params: z.object({ idx: z.string().openapi({ example: '0' }) }) },
      responses: {
        200: jsonOrActivityStreams(registrySchemas.Activity, 'The activity, or its signed document'),
      },
      refusals: [NOT_ACCEPTABLE, ACTIVITY_ERRORS],
    },
    async (ctx) => {
      const raw = String(ctx.params.idx);
      if (!/^\d+$/.test(raw)) throw ACTIVITY_ERRORS.problem({ type: 'invalid_request' });
      const idx = Number(raw);
      if (negotiate(ctx.get('Accept'), ACTIVITY_REPRESENTATIONS) === 'ap') {
        // The ActivityStreams form is the log entry itself: the stored bytes, as the leaf hash covers them.
        const entry = Number.isSafeInteger(idx) ? await useCases.getActivityEntry.execute(idx) : null;
        if (!entry) throw ACTIVITY_ERRORS.problem({ type: 'not_found', idx: raw });
        ctx.vary('Accept');
        ctx.body = Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength);
        ctx.type = AP_CONTENT_TYPE;
        return;
      }
      const activity = Number.isSafeInteger(idx) ? await useCases.getActivity.execute(idx) : null;
      if (!activity) throw ACTIVITY_ERRORS.problem({ type: 'not_found', idx: raw });
      await respond(ctx, {
        html: () =>
          renderPage(ctx, deps, 'activity', {
            title: `Activity ${activity.idx}`,
            activity: activityJson(activity, urls),
            document: JSON.stringify(activity.document, null, 2),
          }),
        ap: () => activity.document,
        json: () => activityJson(activity, urls),
      });
    },
  );

  routes.get('/activity/:idx', PAGE, (ctx) => {
    ctx.status = 301;
    ctx.set('Location', `/activities/${encodeURIComponent(String(ctx.params.idx))}${ctx.search}`);
    ctx.body = '';
    ctx.remove('Content-Type');
  });
}
