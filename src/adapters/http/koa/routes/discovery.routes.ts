// Discovery (API.md §4): webfinger, host-meta and NodeInfo, which other servers read before anything else.
import { JRD_CONTENT_TYPE } from '../../content-types.js';
import { webfingerAnswer } from '../../hot-paths/answers.js';
import { hostMetaXml, usernameFromResource } from '../../shared/webfinger.js';
import { z } from 'zod';
import { Jrd, NodeInfo, NodeInfoLinks } from '../../shared/service-schemas.js';
import {
  instanceJrd,
  NODEINFO_21,
  nodeInfoJson,
  nodeInfoLinksJson,
} from '../../shared/presenters/service-presenters.js';
import type { HttpDependencies } from '../dependencies.js';
import { PUBLIC_ACTOR_ERRORS, WEBFINGER_ERRORS } from '../errors/federation-errors.js';
import { json } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';
import { sendAnswer } from '../respond.js';

export function discoveryRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings, urls } = deps;
  // The service actor is @<host>@<domain>, as Mastodon names its own.
  const instanceHost = urls.address.hostname;
  const instanceAcct = `acct:${instanceHost}@${settings.webfingerDomain}`.toLowerCase();

  routes.get(
    '/.well-known/webfinger',
    {
      summary:
        'WebFinger (JRD) for acct:<user>@<domain>, an actor URL, or the service actor acct:<host>@<domain>',
      request: { query: z.object({ resource: z.string().openapi({ example: 'acct:alice@l2.example' }) }) },
      responses: {
        200: { description: 'JRD', content: { 'application/jrd+json': { schema: Jrd } } },
      },
      refusals: [WEBFINGER_ERRORS, PUBLIC_ACTOR_ERRORS.only('gone', 'disabled')],
    },
    async (ctx) => {
      ctx.set('Access-Control-Allow-Origin', '*');
      const resource = ctx.query.resource;
      if (typeof resource !== 'string' || resource === '') {
        const detail = 'resource: give acct:<user>@<domain> or an actor URL.';
        throw WEBFINGER_ERRORS.problem({ type: 'invalid_request', detail });
      }
      if (resource.toLowerCase() === instanceAcct || resource === urls.instanceActor()) {
        ctx.type = JRD_CONTENT_TYPE;
        ctx.body = instanceJrd(instanceAcct, urls);
        return;
      }
      const named = usernameFromResource(resource, {
        domain: settings.webfingerDomain,
        actorUrlPrefix: settings.publicUrl,
      });
      if (named === 'malformed') {
        const detail = 'resource: not an acct: URI or an http(s) URL.';
        throw WEBFINGER_ERRORS.problem({ type: 'invalid_request', detail });
      }
      if (named === null) throw WEBFINGER_ERRORS.problem({ type: 'not_found' });
      const found = await useCases.getPublicActor.execute(named);
      if (!found.ok && found.error.type === 'not_found')
        throw WEBFINGER_ERRORS.problem({ type: 'not_found' });
      if (!found.ok) throw PUBLIC_ACTOR_ERRORS.problem(found.error);
      sendAnswer(ctx, webfingerAnswer(found.value.username, settings.webfingerDomain, urls));
    },
  );

  routes.get(
    '/.well-known/host-meta',
    {
      summary: 'XRD with the webfinger lrdd template (for peers that look here first)',
      responses: { 200: { description: 'XRD', content: { 'application/xrd+xml': { schema: z.string() } } } },
      refusals: [],
    },
    (ctx) => {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.type = 'application/xrd+xml; charset=utf-8';
      ctx.body = hostMetaXml(settings.publicUrl);
    },
  );

  routes.get(
    '/.well-known/nodeinfo',
    {
      summary: 'Links to the NodeInfo documents',
      responses: { 200: json(NodeInfoLinks, 'NodeInfo links') },
      refusals: [],
    },
    (ctx) => {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = nodeInfoLinksJson(settings.publicUrl);
    },
  );

  routes.get(
    '/nodeinfo/2.1',
    {
      summary: 'NodeInfo 2.1 (linked from /.well-known/nodeinfo)',
      responses: { 200: json(NodeInfo, 'NodeInfo') },
      refusals: [],
    },
    async (ctx) => {
      const stats = await useCases.getStatistics.execute();
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.type = `application/json; profile="${NODEINFO_21}#"`;
      ctx.body = nodeInfoJson(settings.version, stats);
    },
  );
}
