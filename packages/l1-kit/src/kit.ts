import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { VerdictCache } from './cache.js';
import {
  L2UnavailableError,
  SignInError,
  TOKEN_ERROR_CODES,
  TokenError,
  UnauthorizedError,
  type SignInErrorCode,
  type TokenErrorCode,
} from './errors.js';
import { callL2, isObject, parseRetryAfter, type FetchLike, type L2Answer } from './http.js';
import { NoticeReceiver } from './notices.js';
import { createRoutes } from './routes.js';
import type {
  AuthResult,
  AuthorizationServerMetadata,
  KitRequest,
  KitResponse,
  L2User,
  RouteHooks,
  SignInResult,
} from './types.js';
import { httpUrl, localPath, normaliseServerUrl, sameServerUrl } from './url.js';

export interface L1KitOptions {
  /** L2's URL — its `PUBLIC_URL`, which must be the `issuer` of its metadata. */
  l2: string;
  /** This L1 server's own URL: sent as `l1_server`, expected as the notices' `aud`, the OAuth `client_id`. */
  self: string;
  /** Deadline for every request to L2 (connect, headers and body). Default 5000 ms. */
  timeoutMs?: number;
  cache?: {
    /**
     * Keep a valid answer for a token scoped to this server for this many seconds (0–60, never past the token's
     * expiry) — only while a notice receiver is mounted. Default 0: every verification asks L2.
     */
    positiveTtlSeconds?: number;
    /** Most verdicts kept (least recently used dropped first). Default 10 000. */
    maxEntries?: number;
  };
  /**
   * Longest pause a `Retry-After` from L2 can impose on every verification (0–30 s). Default 30 s: one answer can
   * make an L1 refuse all its users meanwhile, so a longer wish from L2 (or whatever sits in front of it) is cut.
   */
  maxRetryAfterSeconds?: number;
  /** The `realm` of `WWW-Authenticate` challenges. Default: `self`. */
  realm?: string;
  /** Where the kit's routes live, relative to `self`. The notice route is `/auth/revoke` (fixed by L2). */
  paths?: { signIn?: string; callback?: string };
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** The `fetch` to reach L2 with. Default the global one. */
  fetch?: FetchLike;
}

/** The notice route, fixed by API.md §2 ("POST <l1_server>/auth/revoke"). */
export const NOTICE_PATH = '/auth/revoke';
const MAX_POSITIVE_TTL_SECONDS = 60;
/** The longest pause one `Retry-After` from L2 can impose on all of this server's users. */
const MAX_RETRY_AFTER_SECONDS = 30;
/** A negative verdict for a token whose expiry cannot be read (or has passed): it can never become valid. */
const NEGATIVE_FALLBACK_MS = 10 * 60_000;
const METADATA_TTL_MS = 60 * 60_000;
const MAX_ANSWER_BYTES = 64 * 1024;
const MAX_TOKEN_LENGTH = 4096;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/**
 * How long jose waits before it refetches L2's key set for an unknown `kid` (its default `cooldownDuration`): a notice
 * naming a key that is newer than the copy is answered 503 with this as Retry-After, so that L2 sends it again.
 */
const KEY_SET_COOLDOWN_SECONDS = 30;
/** Logout tokens live 120 s (API.md §2.4); accept some clock skew and delivery time, no more. */
const NOTICE_MAX_AGE_SECONDS = 300;
const CLOCK_TOLERANCE_SECONDS = 60;
/** L2 retries one notice for 24 hours; remember its id a little longer so the hook runs once per notice. */
const NOTICE_MEMORY_MS = 25 * 60 * 60_000;
const MAX_REMEMBERED_NOTICES = 100_000;
const SIGN_IN_COOKIE = 'l1kit_signin';
const SIGN_IN_LIFETIME_SECONDS = 600;

/** SHA-256 hex of a token string: the `token_hash` of L2's notices. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The token of an `Authorization: Bearer <token>` header, or `undefined`. */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}

interface Flight {
  promise: Promise<L2User>;
  /** A notice for this token arrived while the request was out: its answer must not be cached. */
  purged: boolean;
}

/**
 * The framework-free core: verifies tokens with L2 (`POST /auth/verify`), caches verdicts without breaking "a
 * revoked token fails at once", receives revocation notices, and runs "Sign in with L2".
 */
export class L1Kit {
  /** L2's URL, normalised. */
  readonly l2: string;
  /** This server's URL, normalised. */
  readonly self: string;
  readonly realm: string;
  readonly timeoutMs: number;
  readonly paths: { signIn: string; callback: string; notices: string };

  readonly #now: () => number;
  readonly #fetch: FetchLike;
  readonly #positiveTtlMs: number;
  readonly #maxRetryAfterSeconds: number;
  readonly #cache: VerdictCache;
  readonly #flights = new Map<string, Flight>();
  #pausedUntil = 0;
  #receivers = 0;
  #metadata: { value: AuthorizationServerMetadata; until: number } | undefined;
  #metadataFlight: Promise<AuthorizationServerMetadata> | undefined;
  #jwks: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;
  /** Notice ids seen: until when they are remembered, and whether the hook has finished with them. */
  readonly #notices = new Map<string, { until: number; done: boolean; tokens: Set<string> }>();

  constructor(options: L1KitOptions) {
    this.l2 = normaliseServerUrl(options.l2, 'l2');
    this.self = normaliseServerUrl(options.self, 'self');
    this.realm = options.realm ?? this.self;
    this.timeoutMs = positive(options.timeoutMs ?? 5000, 'timeoutMs');
    const ttl = options.cache?.positiveTtlSeconds ?? 0;
    if (!(ttl >= 0 && ttl <= MAX_POSITIVE_TTL_SECONDS)) {
      throw new RangeError(
        `cache.positiveTtlSeconds must be between 0 and ${MAX_POSITIVE_TTL_SECONDS}, got ${ttl}`,
      );
    }
    this.#positiveTtlMs = ttl * 1000;
    this.#cache = new VerdictCache(positive(options.cache?.maxEntries ?? 10_000, 'cache.maxEntries'));
    const maxRetryAfter = options.maxRetryAfterSeconds ?? MAX_RETRY_AFTER_SECONDS;
    if (!(maxRetryAfter >= 0 && maxRetryAfter <= MAX_RETRY_AFTER_SECONDS)) {
      throw new RangeError(
        `maxRetryAfterSeconds must be between 0 and ${MAX_RETRY_AFTER_SECONDS}, got ${maxRetryAfter}`,
      );
    }
    this.#maxRetryAfterSeconds = maxRetryAfter;
    this.#now = options.now ?? Date.now;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    const selfPath = new URL(this.self).pathname.replace(/\/$/, '');
    this.paths = {
      signIn: selfPath + routePath(options.paths?.signIn ?? '/auth/login'),
      callback: selfPath + routePath(options.paths?.callback ?? '/auth/callback'),
      notices: selfPath + NOTICE_PATH,
    };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Verification

  /**
   * Who `token` belongs to, by L2's `POST /auth/verify`. Throws {@link TokenError} (`401`, with the precise code)
   * when L2 does not accept it and {@link L2UnavailableError} (`503`) whenever L2 gives no verdict — never a user.
   * Concurrent calls for one token share one request.
   */
  async verify(token: string): Promise<L2User> {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) {
      throw new TokenError('token_invalid', this.realm);
    }
    const key = hashToken(token);
    const now = this.#now();
    const cached = this.#cache.get(key, now);
    if (cached?.valid === false) throw new TokenError(cached.code, this.realm);
    if (cached?.valid === true) {
      // Only while a receiver is mounted, and only before the token's expiry, checked again on every hit.
      if (this.positiveCacheActive && cached.user.expiresAt.getTime() > now) return cached.user;
      this.#cache.delete(key);
    }
    const inFlight = this.#flights.get(key);
    if (inFlight) return inFlight.promise;
    if (this.#pausedUntil > now) {
      const wait = Math.ceil((this.#pausedUntil - now) / 1000);
      throw new L2UnavailableError('backoff', `L2 asked to retry after ${wait} s`, wait);
    }
    const flight: Flight = { purged: false, promise: undefined as unknown as Promise<L2User> };
    flight.promise = this.#ask(token, key, flight).finally(() => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
    });
    this.#flights.set(key, flight);
    return flight.promise;
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
    this.#cache.delete(tokenHash);
    const flight = this.#flights.get(tokenHash);
    if (flight) {
      flight.purged = true;
      this.#flights.delete(tokenHash);
    }
  }

  /** Whether valid answers are being cached: a positive TTL was configured and a notice receiver is mounted. */
  get positiveCacheActive(): boolean {
    return this.#positiveTtlMs > 0 && this.#receivers > 0;
  }

  async #ask(token: string, key: string, flight: Flight): Promise<L2User> {
    const answer = await callL2(
      `${this.l2}/auth/verify`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ token, l1_server: this.self }),
      },
      this.#callOptions(),
    );
    const now = this.#now();
    if (answer.status === 200) {
      const user = this.#readUser(answer.json);
      if (!user) throw new L2UnavailableError('malformed', 'a 200 answer that is not a valid verification');
      const expiresAt = user.expiresAt.getTime();
      if (this.positiveCacheActive && !flight.purged && user.l1Server !== null && expiresAt > now) {
        this.#cache.set(key, { valid: true, user, until: Math.min(now + this.#positiveTtlMs, expiresAt) });
      }
      return user;
    }
    if (answer.status === 401) {
      const body = answer.json;
      if (!isObject(body) || body.valid !== false) {
        throw new L2UnavailableError('malformed', 'a 401 answer without "valid": false');
      }
      const code = TOKEN_ERROR_CODES.includes(body.code as TokenErrorCode)
        ? (body.code as TokenErrorCode)
        : 'token_invalid';
      const expiry = claimedExpiry(token);
      this.#cache.set(key, {
        valid: false,
        code,
        until: expiry !== undefined && expiry > now ? expiry : now + NEGATIVE_FALLBACK_MS,
      });
      throw new TokenError(code, this.realm);
    }
    throw this.#unavailable(answer, now);
  }

  #unavailable(answer: L2Answer, now: number): L2UnavailableError {
    let retryAfter: number | undefined;
    if (answer.status === 503 || answer.status === 429) {
      const asked = parseRetryAfter(answer.headers.get('retry-after'), now);
      if (asked !== undefined) {
        retryAfter = Math.min(asked, this.#maxRetryAfterSeconds);
        this.#pausedUntil = Math.max(this.#pausedUntil, now + retryAfter * 1000);
      }
    }
    return new L2UnavailableError('status', `L2 answered ${answer.status}`, retryAfter);
  }

  #readUser(body: unknown): L2User | undefined {
    if (!isObject(body) || body.valid !== true) return undefined;
    const { username, l2_server: l2Server, l1_server: l1Server, expires_at: expiresAt } = body;
    if (typeof username !== 'string' || username === '') return undefined;
    if (typeof l2Server !== 'string' || !sameServerUrl(l2Server, this.l2)) return undefined;
    if (l1Server !== null && l1Server !== undefined && !sameServerUrl(l1Server, this.self)) return undefined;
    const expiry = typeof expiresAt === 'string' ? new Date(expiresAt) : undefined;
    if (!expiry || Number.isNaN(expiry.getTime())) return undefined;
    return {
      username,
      l2Server,
      l1Server: typeof l1Server === 'string' ? l1Server : null,
      expiresAt: expiry,
    };
  }

  #callOptions() {
    return { fetch: this.#fetch, timeoutMs: this.timeoutMs, maxBytes: MAX_ANSWER_BYTES };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Discovery

  /**
   * L2's RFC 8414 metadata (`/.well-known/oauth-authorization-server`), kept an hour. Its `issuer` must be the
   * configured L2 URL; otherwise, or when L2 cannot be reached, {@link L2UnavailableError}.
   */
  async metadata(): Promise<AuthorizationServerMetadata> {
    const cached = this.#metadata;
    if (cached && cached.until > this.#now()) return cached.value;
    this.#metadataFlight ??= this.#discover().finally(() => (this.#metadataFlight = undefined));
    return this.#metadataFlight;
  }

  /** Discovers L2 now; resolves to the kit, or rejects when L2 is not the configured one or cannot be reached. */
  async ready(): Promise<this> {
    await this.metadata();
    return this;
  }

  async #discover(): Promise<AuthorizationServerMetadata> {
    const issuer = new URL(this.l2);
    const path = issuer.pathname === '/' ? '' : issuer.pathname;
    const answer = await callL2(
      `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
      { headers: { accept: 'application/json' } },
      this.#callOptions(),
    );
    if (answer.status !== 200) throw this.#unavailable(answer, this.#now());
    const body = answer.json;
    if (!isObject(body)) throw new L2UnavailableError('malformed', 'metadata that is not a JSON object');
    if (!sameServerUrl(body.issuer, this.l2)) {
      throw new L2UnavailableError(
        'issuer_mismatch',
        `metadata issuer ${JSON.stringify(body.issuer)} is not ${this.l2}`,
      );
    }
    for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) {
      if (!httpUrl(body[field]))
        throw new L2UnavailableError('malformed', `metadata without a valid ${field}`);
    }
    const methods = body.code_challenge_methods_supported;
    if (Array.isArray(methods) && !methods.includes('S256')) {
      throw new L2UnavailableError(
        'malformed',
        'metadata without S256 among code_challenge_methods_supported',
      );
    }
    const value = body as AuthorizationServerMetadata;
    this.#metadata = { value, until: this.#now() + METADATA_TTL_MS };
    return value;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Notices

  /**
   * A revocation-notice receiver. Creating one counts as mounting it: from then until `close()`, valid answers for
   * tokens scoped to this server may be cached (`cache.positiveTtlSeconds`), because a notice purges them.
   */
  noticeReceiver(hooks: { onLogout?: RouteHooks<unknown>['onLogout'] } = {}): NoticeReceiver {
    this.#receivers++;
    let open = true;
    return new NoticeReceiver(this, hooks.onLogout, () => {
      if (!open) return;
      open = false;
      this.#receivers--;
      if (this.#receivers === 0) this.#cache.dropPositive();
    });
  }

  /**
   * @internal Verifies a logout token (API.md §2.4): ES256 by a key of L2's JWKS, `typ: logout+jwt`, `iss` = the
   * metadata issuer, `aud` = this server, `iat` recent and not in the future, `exp` not passed.
   */
  async verifyLogoutToken(jwt: string): Promise<JWTPayload> {
    const metadata = await this.metadata();
    if (this.#jwks?.uri !== metadata.jwks_uri) {
      const fetchJwks: FetchLike = (url, init) => this.#fetch(url, init);
      this.#jwks = {
        uri: metadata.jwks_uri,
        keys: createRemoteJWKSet(new URL(metadata.jwks_uri), {
          timeoutDuration: this.timeoutMs,
          [customFetch]: fetchJwks,
        }),
      };
    }
    // Read before the check: jose refetches the set for an unknown kid unless it fetched it moments ago.
    const recentlyFetched = this.#jwks.keys.coolingDown;
    try {
      const { payload } = await jwtVerify(jwt, this.#jwks.keys, {
        algorithms: ['ES256'],
        typ: 'logout+jwt',
        issuer: metadata.issuer,
        audience: this.self,
        requiredClaims: ['iat', 'exp', 'jti', 'sub', 'events'],
        maxTokenAge: NOTICE_MAX_AGE_SECONDS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.#now()),
      });
      return payload;
    } catch (error) {
      // A key L2 started signing with after the set was fetched (a rotation): not provably forged, so L2 is asked
      // to send the notice again once the set may be refetched — a permanent 400 would lose it.
      if (error instanceof joseErrors.JWKSNoMatchingKey && recentlyFetched) {
        throw new L2UnavailableError(
          'unknown_key',
          "the notice names a key not in L2's key set as fetched moments ago",
          KEY_SET_COOLDOWN_SECONDS,
        );
      }
      throw error;
    }
  }

  /**
   * @internal Records a notice by its id and the digest of the logout token that brought it: `new` the first time,
   * `replayed` for a logout token seen before (L2 signs every attempt afresh, so only a copy arrives twice),
   * `pending` for L2's redelivery while the hook still runs, `done` for one after the hook finished.
   */
  claimNotice(jti: string, tokenDigest: string): 'new' | 'replayed' | 'pending' | 'done' {
    const now = this.#now();
    const seen = this.#notices.get(jti);
    if (seen !== undefined && seen.until > now) {
      if (seen.tokens.has(tokenDigest)) return 'replayed';
      seen.tokens.add(tokenDigest);
      return seen.done ? 'done' : 'pending';
    }
    this.#notices.delete(jti);
    this.#notices.set(jti, { until: now + NOTICE_MEMORY_MS, done: false, tokens: new Set([tokenDigest]) });
    for (const [id, entry] of this.#notices) {
      if (this.#notices.size <= MAX_REMEMBERED_NOTICES && entry.until > now) break;
      this.#notices.delete(id);
    }
    return 'new';
  }

  /** @internal The hook finished with a notice (`handled`), or failed and L2's next attempt must be handled. */
  settleNotice(jti: string, handled: boolean): void {
    const entry = this.#notices.get(jti);
    if (!entry) return;
    if (handled) entry.done = true;
    else this.#notices.delete(jti);
  }

  /** @internal */
  clock(): number {
    return this.#now();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Sign in with L2 (authorization code + PKCE, API.md §2.3)

  /** The `redirect_uri` L2 sends the browser back to. */
  get redirectUri(): string {
    return new URL(this.self).origin + this.paths.callback;
  }

  /**
   * Starts "Sign in with L2": a `303` to L2's authorization endpoint (fresh `state`, PKCE S256), with a short-lived
   * cookie that holds the state and the verifier for the callback. `returnTo` is a local path (default `/`).
   */
  async startSignIn(options: { returnTo?: string } = {}): Promise<KitResponse> {
    const metadata = await this.metadata();
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = new URL(metadata.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.self);
    url.searchParams.set('redirect_uri', this.redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    const value = Buffer.from(JSON.stringify([state, verifier, localPath(options.returnTo)])).toString(
      'base64url',
    );
    return {
      status: 303,
      headers: {
        Location: url.href,
        'Set-Cookie': this.#signInCookie(value, SIGN_IN_LIFETIME_SECONDS),
        'Cache-Control': 'no-store',
      },
    };
  }

  /**
   * Completes "Sign in with L2" at the callback: checks `state` against this browser's cookie, exchanges the code
   * (with the PKCE verifier) at L2's token endpoint, verifies the token, and returns the user, the token and a `303`
   * to the local path sign-in started from — so the code leaves the address bar. Throws {@link SignInError},
   * {@link TokenError} or {@link L2UnavailableError}; answer those with {@link signInCookieClearing} among the headers.
   */
  async finishSignIn(request: { url: string; cookie?: string | undefined }): Promise<SignInResult> {
    const params = new URL(request.url, this.self).searchParams;
    const saved = readSignInCookie(request.cookie);
    const state = params.get('state');
    if (!saved || state === null || !sameSecret(state, saved.state)) {
      throw new SignInError(
        'state_mismatch',
        'This sign-in was not started in this browser, or has expired.',
      );
    }
    const error = params.get('error');
    if (error !== null) {
      throw error === 'access_denied'
        ? new SignInError('access_denied', 'The sign-in was denied at L2.')
        : new SignInError('invalid_callback', `L2 reported ${JSON.stringify(error.slice(0, 64))}.`);
    }
    const code = params.get('code');
    if (code === null || code === '')
      throw new SignInError('invalid_callback', 'The callback carries no code.');
    const token = await this.#exchange(code, saved.verifier);
    const user = await this.verify(token);
    if (!sameServerUrl(user.l1Server, this.self)) throw new TokenError('token_scope_mismatch', this.realm);
    return {
      user,
      token,
      response: {
        status: 303,
        headers: {
          Location: saved.returnTo,
          'Set-Cookie': this.signInCookieClearing(),
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        },
      },
    };
  }

  /** The `Set-Cookie` value that removes the sign-in cookie. */
  signInCookieClearing(): string {
    return this.#signInCookie('', 0);
  }

  #signInCookie(value: string, maxAge: number): string {
    const secure = this.self.startsWith('https:') ? '; Secure' : '';
    return `${SIGN_IN_COOKIE}=${value}; Path=${this.paths.callback}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
  }

  async #exchange(code: string, verifier: string): Promise<string> {
    const metadata = await this.metadata();
    const answer = await callL2(
      metadata.token_endpoint,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: this.redirectUri,
          code_verifier: verifier,
          client_id: this.self,
        }).toString(),
      },
      this.#callOptions(),
    );
    const body = answer.json;
    if (answer.status === 200) {
      if (
        !isObject(body) ||
        typeof body.access_token !== 'string' ||
        !/^bearer$/i.test(String(body.token_type))
      ) {
        throw new L2UnavailableError('malformed', 'a token answer without a bearer access_token');
      }
      return body.access_token;
    }
    if (
      (answer.status === 400 || answer.status === 401) &&
      isObject(body) &&
      typeof body.error === 'string'
    ) {
      const known: SignInErrorCode[] = ['invalid_grant', 'invalid_request', 'invalid_client'];
      const code = known.includes(body.error as SignInErrorCode)
        ? (body.error as SignInErrorCode)
        : 'invalid_grant';
      throw new SignInError(code, `L2 refused the code (${body.error.slice(0, 64)}).`);
    }
    throw this.#unavailable(answer, this.#now());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Routes

  /**
   * The kit's routes as one framework-free handler: `POST <self>/auth/revoke` (notices; mounts a receiver),
   * `GET <self>/auth/login` and `GET <self>/auth/callback` (sign-in; only with `onSignIn`). Resolves to the answer,
   * or `undefined` for any other request. The Express, Koa and node:http adapters wrap this.
   */
  routes<Context>(
    hooks: RouteHooks<Context>,
  ): (request: KitRequest, context: Context) => Promise<KitResponse | undefined> {
    return createRoutes(this, hooks);
  }
}

/** Creates the kit. See {@link L1KitOptions}. */
export function createL1Kit(options: L1KitOptions): L1Kit {
  return new L1Kit(options);
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number`);
  return value;
}

function routePath(path: string): string {
  if (!path.startsWith('/') || /[?#]/.test(path))
    throw new TypeError(`a route path must start with /: ${path}`);
  return path.replace(/\/$/, '') || '/';
}

/** The `exp` a token claims, in epoch milliseconds — read without verifying, only to bound a negative cache entry. */
function claimedExpiry(token: string): number | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const exp = isObject(payload) ? payload.exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function readSignInCookie(
  header: string | undefined,
): { state: string; verifier: string; returnTo: string } | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== SIGN_IN_COOKIE) continue;
    try {
      const value: unknown = JSON.parse(Buffer.from(rest.join('='), 'base64url').toString('utf8'));
      if (
        Array.isArray(value) &&
        value.length === 3 &&
        value.every((v) => typeof v === 'string' && v !== '')
      ) {
        return { state: value[0], verifier: value[1], returnTo: localPath(value[2]) };
      }
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
