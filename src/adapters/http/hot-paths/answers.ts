// The successful answers of the routes that also have a hot path (introspection's are in introspection-answer.ts),
// written once: the Koa routes and the hot paths both send exactly these (representation, headers, metric label).
// Their JSON bodies are the presenters of shared/presenters/, typed by the routes' schemas.
import { LRUCache } from 'lru-cache';
import type { Urls } from '../../../domain/activity-streams.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { UserProfile } from '../../../domain/user.js';
import { actorDocument, type ActorView } from '../../../domain/actor-document.js';
import type { Representation } from '../shared/negotiate.js';
import { AP_CONTENT_TYPE, JRD_CONTENT_TYPE, JSON_CONTENT_TYPE } from '../content-types.js';
import { userJrd } from '../shared/presenters/service-presenters.js';
import { verifiedJson } from '../shared/presenters/token-presenters.js';

/** A 200 answer: the route pattern it is counted under, its content type, headers and serialised body. */
export interface Answer {
  readonly route: string;
  readonly contentType: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string | Buffer;
}

/** The route patterns of the hot paths, as the router and /metrics name them. */
export const HOT_ROUTES = {
  verify: '/auth/verify',
  actor: '/users/:username',
  webfinger: '/.well-known/webfinger',
} as const;

/** The representations GET /users/{u} offers, in the Koa route's order (ties go to the first). */
export const USER_REPRESENTATIONS: readonly Representation[] = ['html', 'ap', 'json'];

/** POST /auth/verify: the token is valid (API.md §1). */
export const verifiedAnswer = (claims: TokenClaims): Answer => ({
  route: HOT_ROUTES.verify,
  contentType: JSON_CONTENT_TYPE,
  headers: [['Cache-Control', 'no-store']],
  body: JSON.stringify(verifiedJson(claims)),
});

/** GET /.well-known/webfinger: the JRD of a live account (API.md §4), readable from any origin. */
export const webfingerAnswer = (username: string, domain: string, urls: Urls): Answer => ({
  route: HOT_ROUTES.webfinger,
  contentType: JRD_CONTENT_TYPE,
  headers: [['Access-Control-Allow-Origin', '*']],
  body: JSON.stringify(userJrd(username, domain, urls)),
});

/** Actor documents kept serialised (1–3 KiB each). */
const REMEMBERED_ACTORS = 10_000;

/**
 * GET /users/{u} as ActivityStreams: the actor of a live account. Each document is serialised once per key and
 * profile version — made of what changes only with them (the name, the key, the profile and the pictures it shows,
 * whose changes move the version); the account itself is still read on every request, so a deletion is seen at once.
 * Only a document not in memory needs its pictures read (`views`).
 */
export class ActorAnswers {
  private readonly texts = new LRUCache<string, { publicKeyPem: string; version: number; text: string }>({
    max: REMEMBERED_ACTORS,
  });

  constructor(
    private readonly urls: Urls,
    private readonly views: (user: UserProfile) => Promise<ActorView>,
  ) {}

  /** The answer, at once when it is in memory. */
  of(user: UserProfile): Answer | Promise<Answer> {
    const cached = this.texts.get(user.username);
    if (cached?.publicKeyPem === user.publicKeyPem && cached.version === user.profileVersion)
      return this.answer(cached.text);
    return this.views(user).then((view) => {
      const text = JSON.stringify(actorDocument(view, this.urls));
      this.texts.set(user.username, { publicKeyPem: user.publicKeyPem, version: user.profileVersion, text });
      return this.answer(text);
    });
  }

  private answer(text: string): Answer {
    return {
      route: HOT_ROUTES.actor,
      contentType: AP_CONTENT_TYPE,
      headers: [['Vary', 'Accept']],
      body: text,
    };
  }
}
