// Local users as ActivityPub actors (API.md §4): the user list and pages, the actor documents, their collections and
// the service's own actor.
import type { Context } from 'koa';
import { AS_CONTEXT } from '../../../../domain/activity-streams.js';
import type { UserProfile } from '../../../../domain/user.js';
import type { Asset } from '../../../../domain/asset.js';
import { altTextOf } from '../../../../domain/asset-note.js';
import {
  countedCollection,
  followersPage,
  orderedCollection,
  outboxPage,
} from '../activitypub/collections.js';
import { instanceActorDocument } from '../activitypub/instance-actor-document.js';
import type { HttpDependencies } from '../dependencies.js';
import { NOT_ACCEPTABLE, QUERY_ERRORS } from '../errors/edge-errors.js';
import { PUBLIC_ACTOR_ERRORS } from '../errors/federation-errors.js';
import { apJson, jsonOrActivityStreams, listDoc, negotiated, userParam } from '../openapi-docs.js';
import { PAGE, type RouteDoc, type RouteTable } from '../route-table.js';
import * as schemas from '../../shared/schemas.js';
import { cursorRequest, pageLink } from '../listing.js';
import { renderPage } from '../pages.js';
import {
  activityListJson,
  assetJson,
  assetListJson,
  listJson,
} from '../../shared/presenters/registry-presenters.js';
import { isScoped } from '../../../../domain/token.js';
import { viewer } from '../request-auth.js';
import { userListJson, userWithProfileJson } from '../../shared/presenters/user-presenters.js';
import * as profileSchemas from '../../shared/profile-schemas.js';
import { respond } from '../respond.js';

/** An ActivityStreams collection of a user; a paged one reads a cursor. */
const collectionDoc = (summary: string, paged = true): RouteDoc => ({
  summary,
  request: { params: userParam },
  responses: { 200: apJson('ActivityStreams collection') },
  refusals: [NOT_ACCEPTABLE, PUBLIC_ACTOR_ERRORS, ...(paged ? [QUERY_ERRORS] : [])],
});

export function activityPubRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases, settings, urls } = deps;
  const instanceHost = urls.address.hostname;

  /** The live account the path names: 404 when there is none, 410 while it is deleted or disabled. */
  const userOr404 = async (ctx: Context): Promise<UserProfile> => {
    const found = await useCases.getPublicActor.execute(String(ctx.params.username));
    if (!found.ok) throw PUBLIC_ACTOR_ERRORS.problem(found.error);
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
    const json = () => userListJson(page, urls, pageLink(ctx, settings.publicUrl));
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
        200: jsonOrActivityStreams(
          profileSchemas.UserWithProfile,
          'The user and their profile, or the actor',
        ),
      },
      // A deleted account is a Tombstone in the ActivityPub form; a deleted or disabled one a page in HTML. The
      // page lists the user's activities, paged by the query.
      refusals: [NOT_ACCEPTABLE, PUBLIC_ACTOR_ERRORS, QUERY_ERRORS],
    },
    async (ctx) => {
      const found = await useCases.getPublicActor.execute(String(ctx.params.username));
      if (!found.ok) {
        const gone = found.error;
        if (gone.type === 'not_found') throw PUBLIC_ACTOR_ERRORS.problem(gone);
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
            if (gone.type !== 'gone') throw PUBLIC_ACTOR_ERRORS.problem(gone);
            ctx.status = 410;
            return {
              '@context': AS_CONTEXT,
              id: urls.actor(gone.username),
              type: 'Tombstone',
              deleted: gone.deletedAt.toISOString(),
            };
          },
          json: () => {
            throw PUBLIC_ACTOR_ERRORS.problem(gone);
          },
        });
      }
      const user = found.value;
      await respond(ctx, {
        html: async () => {
          const signedIn = await viewer(ctx, deps);
          const own = signedIn?.claims.username === user.username;
          const [assets, activities, followers, view, featured, waiting] = await Promise.all([
            useCases.listRegistry.execute({ owner: user.username }, { limit: 10 }),
            useCases.listActivities.execute({ actor: user.username }, cursorRequest(ctx)),
            useCases.countFollowers.execute(user.username),
            useCases.getActorView.execute(user),
            useCases.getFeatured.execute(user.username),
            own ? useCases.countFollowRequests.execute(user.username) : Promise.resolve(null),
          ]);
          const picture = (asset: Asset | null) => (asset ? { url: asset.url, alt: altTextOf(asset) } : null);
          await renderPage(ctx, deps, 'user', {
            title: user.profile.displayName ?? user.username,
            user: userWithProfileJson(user, urls),
            displayName: user.profile.displayName ?? user.username,
            bio: paragraphsOf(user.profile.bio ?? ''),
            fields: user.profile.fields.map((field) => ({
              ...field,
              link: /^https?:\/\/\S+$/.test(field.value) ? field.value : null,
            })),
            avatar: picture(view.avatar),
            header: picture(view.header),
            pinned: featured.ok ? featured.value.pinned.map((a) => assetJson(a, urls)) : [],
            alternate: urls.actor(user.username),
            handle: `@${user.username}@${settings.webfingerDomain}`,
            followers,
            ownPage: own,
            waiting,
            assets: assetListJson(
              assets,
              urls,
              (c) => `/registry?owner=${user.username}&${new URLSearchParams(c)}`,
            ),
            // The profile pages through the user's activities itself (?before= / ?after=).
            activities: activityListJson(activities, urls, pageLink(ctx, settings.publicUrl)),
          });
        },
        // AP before JSON: a peer sending both types at equal q gets the actor, not the plain user.
        ap: async () => {
          const answer = await deps.actorAnswers.of(user);
          for (const [name, value] of answer.headers) ctx.set(name, value);
          return answer.body;
        },
        json: () => userWithProfileJson(user, urls),
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

  /** The followers page: anyone may read it (the collection lists them too); the user themself can remove one. */
  const renderFollowersPage = async (ctx: Context, user: UserProfile) => {
    const signedIn = await viewer(ctx, deps);
    const own = signedIn !== null && signedIn.claims.username === user.username && !isScoped(signedIn.claims);
    const [page, waiting] = await Promise.all([
      useCases.listFollowers.execute(user.username, cursorRequest(ctx)),
      own ? useCases.countFollowRequests.execute(user.username) : Promise.resolve(0),
    ]);
    await renderPage(ctx, deps, 'followers', {
      title: `Followers of ${user.username}`,
      username: user.username,
      own,
      waiting,
      list: listJson(
        page,
        (f) => ({ actor: f.actor, followed_at: f.followedAt.toISOString() }),
        pageLink(ctx, settings.publicUrl),
      ),
    });
  };

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
      // A browser gets the page (API.md §4.3); no Accept, */* or a tie get the collection, as peers fetch it.
      await respond(ctx, { json: body, ap: body, html: () => renderFollowersPage(ctx, user) });
    },
  );

  routes.get(
    '/actor',
    {
      summary: "The service's own actor (an Application), which signs the GETs the service makes",
      responses: { 200: apJson('ActivityStreams Application') },
      refusals: [NOT_ACCEPTABLE],
    },
    async (ctx) => {
      const { publicKeyPem } = await deps.instanceActorKeys.keyPair();
      const body = () => instanceActorDocument(urls, { host: instanceHost, publicKeyPem });
      await respond(ctx, { ap: body, json: body });
    },
  );

  routes.get(
    '/users/:username/following',
    collectionDoc('An empty OrderedCollection (L2 users follow no one)', false),
    async (ctx) => {
      const user = await userOr404(ctx);
      // L2 users follow no one: the collection exists because the actor links to it.
      const body = () => countedCollection(urls.following(user.username), 0);
      await respond(ctx, { json: body, ap: body });
    },
  );
}

/** Plain text as paragraphs of lines, for a page to show with its own markup (every line escaped there). */
function paragraphsOf(text: string): string[][] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n\s*/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => paragraph.split('\n'));
}
