import type { Context } from 'koa';
import type { UserProfile } from '../../../../domain/user.js';
import {
  countedCollection,
  followersPage,
  orderedCollection,
  outboxPage,
} from '../activitypub/collections.js';
import { instanceActorDocument } from '../activitypub/instance-actor-document.js';
import { hostMetaXml, usernameFromResource } from '../activitypub/webfinger.js';
import { JRD_CONTENT_TYPE } from '../../content-types.js';
import { webfingerAnswer } from '../../hot-paths/answers.js';
import { z } from 'zod';
import type { HttpDependencies } from '../dependencies.js';
import { apJson, json, listDoc, negotiated, problem, userParam } from '../openapi-docs.js';
import { PAGE, type RouteDoc, type RouteTable } from '../route-table.js';
import { AS_CONTEXT } from '../../../../domain/activity-streams.js';
import * as schemas from '../schemas.js';
import { cursorRequest, pageLink } from '../listing.js';
import { renderPage } from '../pages.js';
import { refusalReason } from '../../../../application/use-cases/federation/receive-activity.js';
import { clientAddress } from '../client-address.js';
import { inboxProblem, publicActorProblem } from '../error-status.js';
import { ThrottledLog } from '../throttled-log.js';
import { HttpProblem } from '../problem.js';
import { activityJson, assetJson, listJson, userJson } from '../representations.js';
import { respond, sendAnswer } from '../respond.js';

const NODEINFO_21 = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

/** Header values as received (names lower-case; repeated headers joined with ", "), for signature checks. */
function receivedHeaders(ctx: Context): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ctx.req.headersDistinct).map(([name, values]) => [name, (values ?? []).join(', ')]),
  );
}

/** An ActivityStreams collection of a user. */
const collectionDoc = (summary: string): RouteDoc => ({
  summary,
  request: { params: userParam },
  responses: {
    200: apJson('ActivityStreams collection'),
    404: problem('not_found'),
    406: problem('not_acceptable'),
    410: problem('gone: the account was deleted or is disabled'),
  },
});

const activityBody = z.object({ type: z.string(), actor: z.string() }).passthrough();
const inboxDoc = (summary: string, extra: RouteDoc['request'] = {}, notFound = {}): RouteDoc => ({
  summary,
  request: {
    ...extra,
    body: {
      description:
        'An activity HTTP-signed by its actor (draft-cavage rsa-sha256 or hs2019 covering (request-target), host, ' +
        'date and digest, or RFC 9421 with content-digest; Date within 5 minutes). Follow, Undo of a Follow and ' +
        'Delete of the actor are acted on; anything else is accepted and ignored. See docs/activitypub.md.',
      content: {
        'application/activity+json': { schema: activityBody },
        'application/ld+json': { schema: activityBody },
      },
    },
  },
  responses: {
    202: { description: 'Accepted (acted on or ignored)' },
    400: problem('invalid_request: not JSON, not an object, no type or actor; a follower without an inbox'),
    401: problem(
      'unauthenticated: unsigned, bad signature or digest, stale Date, unknown key, signer is not the actor ' +
        '(one fixed detail for every case; the reason is in the operator’s log)',
    ),
    ...notFound,
    413: problem('payload_too_large: over 256 KiB'),
    415: problem('unsupported_media_type'),
    429: problem(
      'rate_limited: this client named too many unknown keys, or a Follow beyond the budget of its actor or its ' +
        'server, or while too many Accepts wait for its server; nothing was stored; send again after Retry-After',
    ),
    503: problem(
      'unavailable: the signer’s key or the follower’s actor cannot be fetched now; send again after Retry-After',
    ),
  },
});

export function activityPubRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings, urls } = deps;
  // The service actor is @<host>@<domain>, as Mastodon names its own.
  const instanceHost = new URL(settings.publicUrl).hostname;
  const instanceAcct = `acct:${instanceHost}@${settings.webfingerDomain}`.toLowerCase();

  /** The live account the path names: 404 when there is none, 410 while it is deleted or disabled. */
  const userOr404 = async (ctx: Context): Promise<UserProfile> => {
    const found = await useCases.getPublicActor.execute(String(ctx.params.username));
    if (!found.ok) throw publicActorProblem(found.error);
    return found.value;
  };

  // Usernames are case-insensitive, but an actor's id must equal the URL it is fetched from: send other spellings
  // to the canonical lower-case URL.
  routes.get(/^\/users\/([^/]*[A-Z][^/]*)(\/.*)?$/, PAGE, (ctx) => {
    const path = ctx.path.replace(/^\/users\/[^/]+/, (segment) => segment.toLowerCase());
    ctx.status = 301;
    ctx.set('Location', `${path}${ctx.search}`);
    ctx.body = '';
    ctx.remove('Content-Type');
  });

  routes.get('/users', listDoc('Registered users, newest first', schemas.UserList), async (ctx) => {
    const request = cursorRequest(ctx);
    const page = await useCases.listUsers.execute(request);
    const json = () => listJson(page, (u) => userJson(u, urls), pageLink(ctx, settings.publicUrl));
    await respond(ctx, {
      html: () =>
        renderPage(ctx, deps, 'users', { title: 'Users', list: json(), domain: settings.webfingerDomain }),
      json,
    });
  });

  routes.get(
    '/users/:username',
    {
      summary: 'One user; application/activity+json gives the ActivityPub actor',
      description: `${negotiated} Other spellings of the name answer 301 to the lower-case URL.`,
      request: { params: userParam },
      responses: {
        200: json(schemas.UserSummary, 'The user'),
        404: problem('not_found'),
        406: problem('not_acceptable'),
        410: problem(
          'gone: the account was deleted (a Tombstone in the ActivityPub form, a page in HTML) or is disabled (a page in HTML)',
        ),
      },
    },
    async (ctx) => {
      const found = await useCases.getPublicActor.execute(String(ctx.params.username));
      if (!found.ok) {
        const gone = found.error;
        if (gone.type === 'not_found') throw publicActorProblem(gone);
        // What a deleted account's URL shows: a page, a Tombstone (as Mastodon serves one), or the problem. A
        // disabled account gets no Tombstone: it may come back, and peers should not forget it for good.
        const disabled = gone.type === 'disabled';
        return respond(ctx, {
          html: () =>
            renderPage(
              ctx,
              deps,
              'user-gone',
              {
                title: `${gone.username} ${disabled ? 'is disabled' : 'left'}`,
                username: gone.username,
                disabled,
              },
              410,
            ),
          ap: () => {
            if (gone.type !== 'gone') throw publicActorProblem(gone);
            ctx.status = 410;
            return {
              '@context': AS_CONTEXT,
              id: urls.actor(gone.username),
              type: 'Tombstone',
              deleted: gone.deletedAt.toISOString(),
            };
          },
          json: () => {
            throw publicActorProblem(gone);
          },
        });
      }
      const user = found.value;
      await respond(ctx, {
        html: async () => {
          const [assets, activities, followers] = await Promise.all([
            useCases.listRegistry.execute({ owner: user.username }, { limit: 10 }),
            useCases.listActivities.execute({ actor: user.username }, cursorRequest(ctx)),
            useCases.countFollowers.execute(user.username),
          ]);
          await renderPage(ctx, deps, 'user', {
            title: user.username,
            user: userJson(user, urls),
            handle: `@${user.username}@${settings.webfingerDomain}`,
            followers,
            assets: listJson(
              assets,
              (a) => assetJson(a, urls),
              (c) => `/registry?owner=${user.username}&${new URLSearchParams(c)}`,
            ),
            // The profile pages through the user's activities itself (?before= / ?after=).
            activities: listJson(activities, (a) => activityJson(a, urls), pageLink(ctx, settings.publicUrl)),
          });
        },
        // AP before JSON: a peer sending both types at equal q gets the actor, not the plain user.
        ap: () => {
          const answer = deps.actorAnswers.of(user);
          for (const [name, value] of answer.headers) ctx.set(name, value);
          return answer.body;
        },
        json: () => userJson(user, urls),
      });
    },
  );

  /** The collection's root without `?page`, else one page of it. */
  const pageOf = (ctx: Context, collectionId: string) => ({
    collectionId,
    pageId: `${settings.publicUrl}${ctx.path}?${new URLSearchParams(ctx.querystring)}`,
    link: pageLink(ctx, settings.publicUrl),
  });

  routes.get(
    '/users/:username/outbox',
    collectionDoc("The user's activities: an OrderedCollection; pages at ?page=true[&before=<idx>]"),
    async (ctx) => {
      const user = await userOr404(ctx);
      const id = urls.outbox(user.username);
      const actor = { actor: user.username };
      const body = async () =>
        ctx.query.page === undefined
          ? orderedCollection(id, (await useCases.listActivities.execute(actor, { limit: 1 })).total)
          : outboxPage({
              ...pageOf(ctx, id),
              page: await useCases.listActivities.execute(actor, cursorRequest(ctx)),
            });
      await respond(ctx, { json: body, ap: body });
    },
  );

  routes.get(
    '/users/:username/followers',
    collectionDoc(
      'The actors following the user: an OrderedCollection; pages of actor ids at ?page=true[&before=]',
    ),
    async (ctx) => {
      const user = await userOr404(ctx);
      const id = urls.followers(user.username);
      const body = async () =>
        ctx.query.page === undefined
          ? orderedCollection(id, await useCases.countFollowers.execute(user.username))
          : followersPage({
              ...pageOf(ctx, id),
              page: await useCases.listFollowers.execute(user.username, cursorRequest(ctx)),
            });
      await respond(ctx, { json: body, ap: body });
    },
  );

  // Inboxes: signed activities from other servers (API.md §5). The body middleware has read the exact bytes.
  const refusals = new ThrottledLog(deps.logger);
  const inbox = (owner: (ctx: Context) => string | null) => async (ctx: Context) => {
    const client = clientAddress(ctx);
    const received = await useCases.receiveActivity.execute({
      inboxOwner: owner(ctx),
      body: ctx.request.body,
      request: {
        method: ctx.method,
        target: ctx.originalUrl,
        headers: receivedHeaders(ctx),
        body: ctx.request.rawBytes ?? Buffer.alloc(0),
        clientAddress: client,
      },
    });
    if (!received.ok) {
      const { error } = received;
      const reason = refusalReason(error);
      if (reason !== null) {
        deps.metrics.inboxRefused(reason);
        refusals.warn(
          {
            reqId: ctx.state.requestId,
            client,
            reason,
            detail: 'message' in error ? error.message : undefined,
          },
          'inbox request refused',
        );
      }
      throw inboxProblem(error);
    }
    ctx.status = 202;
    ctx.body = '';
  };
  routes.post(
    '/inbox',
    inboxDoc('The shared inbox (ActivityPub)'),
    inbox(() => null),
  );
  routes.post(
    '/users/:username/inbox',
    inboxDoc(
      "A user's inbox (ActivityPub)",
      { params: userParam },
      { 404: problem('not_found: no such user'), 410: problem('gone: the account was deleted') },
    ),
    inbox((ctx) => String(ctx.params.username)),
  );

  routes.get(
    '/actor',
    {
      summary: "The service's own actor (an Application), which signs the GETs the service makes",
      responses: { 200: apJson('ActivityStreams Application'), 406: problem('not_acceptable') },
    },
    async (ctx) => {
      const { publicKeyPem } = await deps.instanceActorKeys.keyPair();
      const body = () => instanceActorDocument(urls, { host: instanceHost, publicKeyPem });
      await respond(ctx, { ap: body, json: body });
    },
  );

  routes.get(
    '/users/:username/following',
    collectionDoc('An empty OrderedCollection (L2 users follow no one)'),
    async (ctx) => {
      const user = await userOr404(ctx);
      // L2 users follow no one: the collection exists because the actor links to it.
      const body = () => countedCollection(urls.following(user.username), 0);
      await respond(ctx, { json: body, ap: body });
    },
  );

  routes.get(
    '/.well-known/webfinger',
    {
      summary:
        'WebFinger (JRD) for acct:<user>@<domain>, an actor URL, or the service actor acct:<host>@<domain>',
      request: { query: z.object({ resource: z.string().openapi({ example: 'acct:alice@l2.example' }) }) },
      responses: {
        200: {
          description: 'JRD',
          content: { 'application/jrd+json': { schema: z.object({}).passthrough() } },
        },
        400: problem('invalid_request: missing or malformed resource'),
        404: problem('not_found: another domain or an unknown user'),
        410: problem('gone: the account was deleted or is disabled'),
      },
    },
    async (ctx) => {
      ctx.set('Access-Control-Allow-Origin', '*');
      const resource = ctx.query.resource;
      if (typeof resource !== 'string' || resource === '') {
        throw new HttpProblem(400, 'invalid_request', 'resource: give acct:<user>@<domain> or an actor URL.');
      }
      if (resource.toLowerCase() === instanceAcct || resource === urls.instanceActor()) {
        ctx.type = JRD_CONTENT_TYPE;
        ctx.body = {
          subject: instanceAcct,
          aliases: [urls.instanceActor()],
          links: [{ rel: 'self', type: 'application/activity+json', href: urls.instanceActor() }],
        };
        return;
      }
      const named = usernameFromResource(resource, {
        domain: settings.webfingerDomain,
        actorUrlPrefix: settings.publicUrl,
      });
      if (named === 'malformed')
        throw new HttpProblem(400, 'invalid_request', 'resource: not an acct: URI or an http(s) URL.');
      if (named === null) throw new HttpProblem(404, 'not_found', 'No such account here.');
      const found = await useCases.getPublicActor.execute(named);
      if (!found.ok && found.error.type === 'not_found')
        throw new HttpProblem(404, 'not_found', 'No such account here.');
      if (!found.ok) throw publicActorProblem(found.error);
      sendAnswer(ctx, webfingerAnswer(found.value.username, settings.webfingerDomain, urls));
    },
  );

  routes.get(
    '/.well-known/host-meta',
    {
      summary: 'XRD with the webfinger lrdd template (for peers that look here first)',
      responses: { 200: { description: 'XRD', content: { 'application/xrd+xml': { schema: z.string() } } } },
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
      responses: { 200: json(z.object({}).passthrough(), 'NodeInfo links') },
    },
    (ctx) => {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = { links: [{ rel: NODEINFO_21, href: `${settings.publicUrl}/nodeinfo/2.1` }] };
    },
  );

  routes.get(
    '/nodeinfo/2.1',
    {
      summary: 'NodeInfo 2.1 (linked from /.well-known/nodeinfo)',
      responses: { 200: json(z.object({}).passthrough(), 'NodeInfo') },
    },
    async (ctx) => {
      const stats = await useCases.getStatistics.execute();
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.type = `application/json; profile="${NODEINFO_21}#"`;
      ctx.body = {
        version: '2.1',
        software: { name: 'l2', version: settings.version },
        protocols: ['activitypub'],
        services: { inbound: [], outbound: [] },
        openRegistrations: true,
        usage: { users: { total: stats.users }, localPosts: stats.activities },
        metadata: {},
      };
    },
  );
}
