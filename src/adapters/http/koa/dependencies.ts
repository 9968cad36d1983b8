import type { UseCases } from '../../../application/use-cases.js';
import type { Logger } from 'pino';
import type { StoreHealth } from '../../../application/ports/store-health.js';
import type { LogHealth } from '../../../application/services/transparency/transparency-log.js';
import type { TlogAnswers } from '../hot-paths/tlog-answers.js';
import type { AuthenticateToken } from '../../../application/services/authenticate-token.js';
import type { InstanceActorKeys } from '../../../application/services/instance-actor-keys.js';
import type { Urls } from '../../../domain/activity-streams.js';
import type { NunjucksViews } from '../../views/nunjucks/nunjucks-views.js';
import type { StaticFile } from '../../views/static-files.js';
import type { ActorAnswers } from '../hot-paths/answers.js';
import type { CsrfGuard } from './csrf.js';
import type { SignInMarks } from './sign-in-marks.js';
import type { L1ServerUrls } from '../shared/l1-server-urls.js';
import type { OutcomeMetrics } from '../shared/metrics.js';
import type { PublicJwk } from '../shared/presenters/oauth-presenters.js';
import type { CookiePolicy } from './session-cookies.js';

export interface HttpSettings {
  /** PUBLIC_URL without a trailing slash; every absolute URL is built from it. */
  readonly publicUrl: string;
  /** Host (and non-default port) of PUBLIC_URL: the domain of `acct:` identities. */
  readonly webfingerDomain: string;
  readonly version: string;
  readonly cookies: CookiePolicy;
  /** Trust X-Forwarded-* (the service runs behind a proxy that sets them). */
  readonly trustProxy: boolean;
  /** The bearer token /metrics asks for, or null for open metrics. */
  readonly metricsToken: string | null;
  /**
   * An answer that does not match its route's description is a bug: a refusal the route does not declare (and so
   * does not document), a JSON success body its schema does not describe. Outside production such an answer is a
   * 500, so that tests and developers meet it; in production the refusal goes out as it is and a warning is logged,
   * and success bodies are not parsed.
   */
  readonly strictAnswers: boolean;
}

/** Everything the HTTP adapter needs, handed over by the composition root. */
export interface HttpDependencies {
  readonly settings: HttpSettings;
  /** Every absolute URL the service emits, built from PUBLIC_URL. */
  readonly urls: Urls;
  readonly logger: Logger;
  readonly views: NunjucksViews;
  /** The README rendered for the home page (rendered once, on the first visit). */
  readonly readmeHtml: () => Promise<string>;
  /** Stylesheet, favicon, screenshots: path → file. */
  readonly staticFiles: ReadonlyMap<string, StaticFile>;
  readonly csrf: CsrfGuard;
  /** When an authorization request sent the browser to sign in again (API.md §2.5: prompt=login, max_age). */
  readonly signInMarks: SignInMarks;
  readonly health: StoreHealth;
  /** Where the transparency log stands (being checked, consistent, inconsistent): part of /readyz. */
  readonly logHealth: () => LogHealth;
  /** The transparency log's answers, shared by its Koa routes and hot paths. */
  readonly tlogAnswers: TlogAnswers;
  /** The service actor's key pair (its public key is served at /actor). */
  readonly instanceActorKeys: InstanceActorKeys;
  /** The actor documents both front ends send (hot-paths/answers.ts), serialised once per user. */
  readonly actorAnswers: ActorAnswers;
  /** The normal form of the L1 server URLs verify is sent, remembered for both front ends. */
  readonly l1ServerUrls: L1ServerUrls;
  /** The JWK Set of the notice signing keys and the ID-token keys (API.md §2.1, §2.5): public keys only. */
  readonly signingJwks: () => { readonly keys: readonly PublicJwk[] };
  /** What every signed-in request authenticates through: a service, not a use-case. */
  readonly authentication: AuthenticateToken;
  readonly useCases: UseCases;
  /** Counters of outcomes the routes see, and the registry GET /metrics serves. */
  readonly metrics: OutcomeMetrics;
}
