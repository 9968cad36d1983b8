import type Router from '@koa/router';
import type { Context } from 'koa';
import type { User } from '../../../../domain/user.js';
import { actorDocument } from '../activitypub/actor-document.js';
import {
  countedCollection,
  followersPage,
  orderedCollection,
  outboxPage,
} from '../activitypub/collections.js';
import { instanceActorDocument } from '../activitypub/instance-actor-document.js';
import { hostMetaXml, usernameFromResource } from '../activitypub/webfinger.js';
import type { HttpDependencies } from '../dependencies.js';
import { cursorRequest, pageLink } from '../listing.js';
import { renderPage } from '../pages.js';
import { inboxProblem } from '../error-status.js';
import { HttpProblem } from '../problem.js';
import { activityJson, assetJson, listJson, userJson } from '../representations.js';
import { respond } from '../respond.js';

const NODEINFO_21 = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

/** Header values as received (names lower-case; repeated headers joined with ", "), for signature checks. */
function receivedHeaders(ctx: Context): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ctx.req.headersDistinct).map(([name, values]) => [name, (values ?? []).join(', ')]),
  );
}

export function activityPubRoutes(router: Router, deps: HttpDependencies): void {
  const { useCases, settings, urls } = deps;
  // The service actor is @<host>@<domain>, as Mastodon names its own.
  const instanceHost = new URL(settings.publicUrl).hostname;
  const instanceAcct = `acct:${instanceHost}@${settings.webfingerDomain}`.toLowerCase();

  const userOr404 = async (ctx: Context): Promise<User> => {
    const user = await useCases.getUser.execute(String(ctx.params.username));
    if (!user) throw new HttpProblem(404, 'not_found', 'There is no such user.');
    return user;
  };

  // Usernames are case-insensitive, but an actor's id must equal the URL it is fetched from: send other spellings
  // to the canonical lower-case URL.
  router.get(/^\/users\/([^/]*[A-Z][^/]*)(\/.*)?$/, (ctx) => {
    const path = ctx.path.replace(/^\/users\/[^/]+/, (segment) => segment.toLowerCase());
    ctx.status = 301;
    ctx.set('Location', `${path}${ctx.search}`);
    ctx.body = '';
    ctx.remove('Content-Type');
  });

  router.get('/users', async (ctx) => {
    const request = cursorRequest(ctx);
    const page = await useCases.listUsers.execute(request);
    const json = () => listJson(page, (u) => userJson(u, urls), pageLink(ctx, settings.publicUrl));
    await respond(ctx, {
      html: () =>
        renderPage(ctx, deps, 'users', { title: 'Users', list: json(), domain: settings.webfingerDomain }),
      json,
    });
  });

  router.get('/users/:username', async (ctx) => {
    const user = await userOr404(ctx);
    await respond(ctx, {
      html: async () => {
        const [assets, activities, followers] = await Promise.all([
          useCases.listRegistry.execute({ owner: user.username }, { limit: 10 }),
          useCases.listActivities.execute({ actor: user.username }, cursorRequest(ctx)),
          useCases.listFollowers.count(user.username),
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
      ap: () => actorDocument(user, urls),
      json: () => userJson(user, urls),
    });
  });

  /** The collection's root without `?page`, else one page of it. */
  const pageOf = (ctx: Context, collectionId: string) => ({
    collectionId,
    pageId: `${settings.publicUrl}${ctx.path}?${new URLSearchParams(ctx.querystring)}`,
    link: pageLink(ctx, settings.publicUrl),
  });

  router.get('/users/:username/outbox', async (ctx) => {
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
  });

  router.get('/users/:username/followers', async (ctx) => {
    const user = await userOr404(ctx);
    const id = urls.followers(user.username);
    const body = async () =>
      ctx.query.page === undefined
        ? orderedCollection(id, await useCases.listFollowers.count(user.username))
        : followersPage({
            ...pageOf(ctx, id),
            page: await useCases.listFollowers.execute(user.username, cursorRequest(ctx)),
          });
    await respond(ctx, { json: body, ap: body });
  });

  // Inboxes: signed activities from other servers (API.md §5). The body middleware has read the exact bytes.
  const inbox = (owner: (ctx: Context) => string | null) => async (ctx: Context) => {
    const received = await useCases.receiveActivity.execute({
      inboxOwner: owner(ctx),
      body: ctx.request.body,
      request: {
        method: ctx.method,
        target: ctx.originalUrl,
        headers: receivedHeaders(ctx),
        body: ctx.request.rawBytes ?? Buffer.alloc(0),
      },
    });
    if (!received.ok) throw inboxProblem(received.error);
    ctx.status = 202;
    ctx.body = '';
  };
  router.post(
    '/inbox',
    inbox(() => null),
  );
  router.post(
    '/users/:username/inbox',
    inbox((ctx) => String(ctx.params.username)),
  );

  router.get('/actor', async (ctx) => {
    const { publicKeyPem } = await deps.instanceActorKeys.keyPair();
    const body = () => instanceActorDocument(urls, { host: instanceHost, publicKeyPem });
    await respond(ctx, { ap: body, json: body });
  });

  router.get('/users/:username/following', async (ctx) => {
    const user = await userOr404(ctx);
    // L2 users follow no one: the collection exists because the actor links to it.
    const body = () => countedCollection(urls.following(user.username), 0);
    await respond(ctx, { json: body, ap: body });
  });

  router.get('/.well-known/webfinger', async (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    const resource = ctx.query.resource;
    if (typeof resource !== 'string' || resource === '') {
      throw new HttpProblem(400, 'invalid_request', 'resource: give acct:<user>@<domain> or an actor URL.');
    }
    if (resource.toLowerCase() === instanceAcct || resource === urls.instanceActor()) {
      ctx.type = 'application/jrd+json; charset=utf-8';
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
    const user = named === null ? null : await useCases.getUser.execute(named);
    if (!user) throw new HttpProblem(404, 'not_found', 'No such account here.');
    const actor = urls.actor(user.username);
    ctx.type = 'application/jrd+json; charset=utf-8';
    ctx.body = {
      subject: `acct:${user.username}@${settings.webfingerDomain}`,
      aliases: [actor],
      links: [
        { rel: 'self', type: 'application/activity+json', href: actor },
        { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: actor },
      ],
    };
  });

  router.get('/.well-known/host-meta', (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = 'application/xrd+xml; charset=utf-8';
    ctx.body = hostMetaXml(settings.publicUrl);
  });

  router.get('/.well-known/nodeinfo', (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = { links: [{ rel: NODEINFO_21, href: `${settings.publicUrl}/nodeinfo/2.1` }] };
  });

  router.get('/nodeinfo/2.1', async (ctx) => {
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
  });
}
