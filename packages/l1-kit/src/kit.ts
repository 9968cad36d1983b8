import { ClientDocument } from './client-document.js';
import { Discovery } from './discovery.js';
import { UnauthorizedError } from './errors.js';
import { L2Client } from './l2-client.js';
import { LogoutTokens } from './logout-tokens.js';
import { NoticeReceiver } from './notices.js';
import { kitSettings, type KitPaths, type L1KitOptions } from './options.js';
import { createRoutes } from './routes.js';
import { SignIn } from './sign-in.js';
import type {
  AuthResult,
  AuthorizationServerMetadata,
  KitRequest,
  KitResponse,
  L2User,
  RouteHooks,
  SignInResult,
} from './types.js';
import { TokenVerifier } from './verifier.js';

/**
 * The framework-free core: verifies tokens with L2 (`POST /auth/verify`), caches verdicts without breaking "a
 * revoked token fails at once", receives revocation notices, and runs "Sign in with L2".
 *
 * A facade: each concern is a part that owns its state — the {@link TokenVerifier} (the verdict cache and its
 * rules), {@link Discovery} (L2's metadata), {@link NoticeReceiver} (each with its ledger of notices, purging
 * through the verifier), {@link SignIn} — built here from the checked options.
 */
export class L1Kit {
  /** L2's URL, normalised. */
  readonly l2: string;
  /** This server's URL, normalised. */
  readonly self: string;
  readonly realm: string;
  readonly timeoutMs: number;
  readonly paths: KitPaths;

  readonly #now: () => number;
  readonly #verifier: TokenVerifier;
  readonly #discovery: Discovery;
  readonly #logoutTokens: LogoutTokens;
  readonly #signIn: SignIn;
  readonly #client: ClientDocument | undefined;

  constructor(options: L1KitOptions) {
    const settings = kitSettings(options);
    this.l2 = settings.l2;
    this.self = settings.self;
    this.realm = settings.realm;
    this.timeoutMs = settings.timeoutMs;
    this.paths = settings.paths;
    this.#now = settings.now;
    const l2 = new L2Client(settings, settings.now);
    this.#verifier = new TokenVerifier(l2, settings);
    this.#discovery = new Discovery(l2, settings.l2);
    this.#logoutTokens = new LogoutTokens(this.#discovery, settings);
    this.#client = settings.client && new ClientDocument(settings.client, settings.now);
    this.#signIn = new SignIn(l2, this.#discovery, (token) => this.verify(token), {
      self: settings.self,
      clientId: settings.audience,
      realm: settings.realm,
      callbackPath: settings.paths.callback,
      client: this.#client,
    });
  }

  /**
   * Who this server is to L2: its OAuth `client_id`, the `l1_server` of its tokens and the `aud` of its notices —
   * `self`, or with the `client` option the URL of the client document the kit serves (API.md §2.5).
   */
  get clientId(): string {
    return this.#client?.clientId ?? this.self;
  }

  /** With the `client` option, the client document the kit serves at {@link clientId}; otherwise `undefined`. */
  clientDocument(): Promise<Record<string, unknown>> | undefined {
    return this.#client?.document();
  }

  /**
   * Who `token` belongs to, by L2's `POST /auth/verify`. Throws {@link TokenError} (`401`, with the precise code)
   * when L2 does not accept it and {@link L2UnavailableError} (`503`) whenever L2 gives no verdict — never a user.
   * Concurrent calls for one token share one request.
   */
  verify(token: string): Promise<L2User> {
    return this.#verifier.verify(token);
  }

  /**
   * Verifies a token taken from a request (see {@link bearerToken}): {@link UnauthorizedError} when there is none,
   * otherwise as {@link verify}.
   */
  async authenticate(token: string | undefined): Promise<AuthResult> {
    if (token === undefined || token === '') throw new UnauthorizedError(this.realm);
    return { user: await this.verify(token), token };
  }

  /** Forgets any verdict for a token (by its SHA-256 hex), including one on its way back from L2. */
  purge(tokenHash: string): void {
    this.#verifier.purge(tokenHash);
  }

  /** Whether valid answers are being cached: a positive TTL was configured and a notice receiver is mounted. */
  get positiveCacheActive(): boolean {
    return this.#verifier.positiveCacheActive;
  }

  /**
   * L2's RFC 8414 metadata (`/.well-known/oauth-authorization-server`), kept an hour. Its `issuer` must be the
   * configured L2 URL; otherwise, or when L2 cannot be reached, {@link L2UnavailableError}.
   */
  metadata(): Promise<AuthorizationServerMetadata> {
    return this.#discovery.metadata();
  }

  /** Discovers L2 now; resolves to the kit, or rejects when L2 is not the configured one or cannot be reached. */
  async ready(): Promise<this> {
    await this.metadata();
    return this;
  }

  /**
   * A revocation-notice receiver. Creating one counts as mounting it: from then until `close()`, valid answers for
   * tokens scoped to this server may be cached (`cache.positiveTtlSeconds`), because a notice purges them.
   */
  noticeReceiver(hooks: { onLogout?: RouteHooks<unknown>['onLogout'] } = {}): NoticeReceiver {
    return new NoticeReceiver({
      verdicts: this, // notices purge through purge() below, the one way to forget a verdict
      logoutTokens: this.#logoutTokens,
      now: this.#now,
      onLogout: hooks.onLogout,
      unmount: this.#verifier.mountReceiver(),
    });
  }

  /** The `redirect_uri` L2 sends the browser back to. */
  get redirectUri(): string {
    return this.#signIn.redirectUri;
  }

  /**
   * Starts "Sign in with L2": a `303` to L2's authorization endpoint (fresh `state`, PKCE S256), with a short-lived
   * cookie that holds the state and the verifier for the callback. `returnTo` is a local path (default `/`).
   */
  startSignIn(options: { returnTo?: string } = {}): Promise<KitResponse> {
    return this.#signIn.start(options.returnTo);
  }

  /**
   * Completes "Sign in with L2" at the callback: checks `state` against this browser's cookie, exchanges the code
   * (with the PKCE verifier) at L2's token endpoint, verifies the token, and returns the user, the token and a `303`
   * to the local path sign-in started from — so the code leaves the address bar. Throws {@link SignInError},
   * {@link TokenError} or {@link L2UnavailableError}; answer those with {@link signInCookieClearing} among the headers.
   */
  finishSignIn(request: { url: string; cookie?: string | undefined }): Promise<SignInResult> {
    return this.#signIn.finish(request);
  }

  /** The `Set-Cookie` value that removes the sign-in cookie. */
  signInCookieClearing(): string {
    return this.#signIn.cookieClearing();
  }

  /**
   * The kit's routes as one framework-free handler: `POST <self>/auth/revoke` (notices, JSON or form; mounts a
   * receiver), `GET <self>/auth/login` and `GET <self>/auth/callback` (sign-in; only with `onSignIn`), and with the
   * `client` option `GET <self>/auth/client.json` (the client document). Resolves to the answer,
   * or `undefined` for any other request. The Express, Koa and node:http adapters wrap this.
   */
  routes<Context>(
    hooks: RouteHooks<Context>,
  ): (request: KitRequest, context: Context) => Promise<KitResponse | undefined> {
    const receiver = this.noticeReceiver({ onLogout: hooks.onLogout });
    return createRoutes({ paths: this.paths, receiver, signIn: this.#signIn, client: this.#client }, hooks);
  }
}

/** Creates the kit. See {@link L1KitOptions}. */
export function createL1Kit(options: L1KitOptions): L1Kit {
  return new L1Kit(options);
}
