import { VerdictCache } from './cache.js';
import { TOKEN_ERROR_CODES, TokenError, L2UnavailableError, type TokenErrorCode } from './errors.js';
import { isObject } from './http.js';
import type { L2Client } from './l2-client.js';
import type { VerdictPurge } from './notices.js';
import { claimedExpiry, hashToken, jwtShaped } from './tokens.js';
import type { L2User } from './types.js';
import { sameServerUrl } from './url.js';

/** A negative verdict for a token whose expiry cannot be read (or has passed): it can never become valid. */
const NEGATIVE_FALLBACK_MS = 10 * 60_000;

interface Flight {
  promise: Promise<L2User>;
  /** A notice for this token arrived while the request was out: its answer must not be cached. */
  purged: boolean;
}

/**
 * Verifies tokens with L2 (`POST /auth/verify`) and owns every rule of the verdict cache, so that "a revoked token
 * fails at once" holds in one place:
 * - a refusal is kept until the token's own expiry (it can never become valid);
 * - a valid answer is kept only for a token scoped to this server, for at most the configured TTL and never past
 *   its expiry, and only while a notice receiver is mounted ({@link mountReceiver}) — a notice then purges it;
 * - a notice that lands while the answer is on its way back keeps that answer out of the cache;
 * - concurrent verifications of one token share one request.
 */
export class TokenVerifier implements VerdictPurge {
  readonly #cache: VerdictCache;
  readonly #flights = new Map<string, Flight>();
  #receivers = 0;

  constructor(
    private readonly l2: L2Client,
    private readonly settings: {
      l2: string;
      /** Who this server is to L2 (`self`, or the client document's URL): the `l1_server` sent and expected. */
      audience: string;
      realm: string;
      positiveTtlMs: number;
      maxEntries: number;
    },
  ) {
    this.#cache = new VerdictCache(settings.maxEntries);
  }

  /** Who `token` belongs to; a {@link TokenError} or {@link L2UnavailableError} otherwise (see `L1Kit.verify`). */
  async verify(token: string): Promise<L2User> {
    if (!jwtShaped(token)) throw new TokenError('token_invalid', this.settings.realm);
    const key = hashToken(token);
    const now = this.l2.now();
    const cached = this.#cache.get(key, now);
    if (cached?.valid === false) throw new TokenError(cached.code, this.settings.realm);
    if (cached?.valid === true) {
      // Only while a receiver is mounted, and only before the token's expiry, checked again on every hit.
      if (this.positiveCacheActive && cached.user.expiresAt.getTime() > now) return cached.user;
      this.#cache.delete(key);
    }
    const inFlight = this.#flights.get(key);
    if (inFlight) return inFlight.promise;
    const paused = this.l2.paused(now);
    if (paused) throw paused;
    const flight: Flight = { purged: false, promise: undefined as unknown as Promise<L2User> };
    flight.promise = this.#ask(token, key, flight).finally(() => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
    });
    this.#flights.set(key, flight);
    return flight.promise;
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
    return this.settings.positiveTtlMs > 0 && this.#receivers > 0;
  }

  /**
   * A notice receiver is mounted: valid answers may be cached until the returned function (idempotent) unmounts
   * it. Once none is left, the valid answers cached are dropped.
   */
  mountReceiver(): () => void {
    this.#receivers++;
    let mounted = true;
    return () => {
      if (!mounted) return;
      mounted = false;
      this.#receivers--;
      if (this.#receivers === 0) this.#cache.dropPositive();
    };
  }

  async #ask(token: string, key: string, flight: Flight): Promise<L2User> {
    const answer = await this.l2.request(`${this.settings.l2}/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token, l1_server: this.settings.audience }),
    });
    const now = this.l2.now();
    if (answer.status === 200) {
      const user = this.#readUser(answer.json);
      if (!user) throw new L2UnavailableError('malformed', 'a 200 answer that is not a valid verification');
      const expiresAt = user.expiresAt.getTime();
      if (this.positiveCacheActive && !flight.purged && user.l1Server !== null && expiresAt > now) {
        const until = Math.min(now + this.settings.positiveTtlMs, expiresAt);
        this.#cache.set(key, { valid: true, user, until });
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
      throw new TokenError(code, this.settings.realm);
    }
    throw this.l2.unavailable(answer, now);
  }

  #readUser(body: unknown): L2User | undefined {
    if (!isObject(body) || body.valid !== true) return undefined;
    const { username, l2_server: l2Server, l1_server: l1Server, expires_at: expiresAt } = body;
    if (typeof username !== 'string' || username === '') return undefined;
    if (typeof l2Server !== 'string' || !sameServerUrl(l2Server, this.settings.l2)) return undefined;
    if (l1Server !== null && l1Server !== undefined && !sameServerUrl(l1Server, this.settings.audience))
      return undefined;
    const expiry = typeof expiresAt === 'string' ? new Date(expiresAt) : undefined;
    if (!expiry || Number.isNaN(expiry.getTime())) return undefined;
    return {
      username,
      l2Server,
      l1Server: typeof l1Server === 'string' ? l1Server : null,
      expiresAt: expiry,
    };
  }
}
