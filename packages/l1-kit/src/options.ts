import type { FetchLike } from './http.js';
import { normaliseServerUrl } from './url.js';

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

/** Where the kit's routes live: full paths on this server. */
export interface KitPaths {
  signIn: string;
  callback: string;
  notices: string;
}

/** The options, checked, normalised and with their defaults: what the kit's parts are built from. */
export interface KitSettings {
  l2: string;
  self: string;
  realm: string;
  timeoutMs: number;
  positiveTtlMs: number;
  maxEntries: number;
  maxRetryAfterSeconds: number;
  paths: KitPaths;
  now: () => number;
  fetch: FetchLike;
}

/** The notice route, fixed by API.md §2 ("POST <l1_server>/auth/revoke"). */
export const NOTICE_PATH = '/auth/revoke';
const MAX_POSITIVE_TTL_SECONDS = 60;
/** The longest pause one `Retry-After` from L2 can impose on all of this server's users. */
const MAX_RETRY_AFTER_SECONDS = 30;

/** Checks the options (a `TypeError` or `RangeError` saying what is wrong) and fills in the defaults. */
export function kitSettings(options: L1KitOptions): KitSettings {
  const l2 = normaliseServerUrl(options.l2, 'l2');
  const self = normaliseServerUrl(options.self, 'self');
  const realm = options.realm ?? self;
  const timeoutMs = positive(options.timeoutMs ?? 5000, 'timeoutMs');
  const ttl = options.cache?.positiveTtlSeconds ?? 0;
  if (!(ttl >= 0 && ttl <= MAX_POSITIVE_TTL_SECONDS)) {
    throw new RangeError(
      `cache.positiveTtlSeconds must be between 0 and ${MAX_POSITIVE_TTL_SECONDS}, got ${ttl}`,
    );
  }
  const maxEntries = positive(options.cache?.maxEntries ?? 10_000, 'cache.maxEntries');
  const maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? MAX_RETRY_AFTER_SECONDS;
  if (!(maxRetryAfterSeconds >= 0 && maxRetryAfterSeconds <= MAX_RETRY_AFTER_SECONDS)) {
    throw new RangeError(
      `maxRetryAfterSeconds must be between 0 and ${MAX_RETRY_AFTER_SECONDS}, got ${maxRetryAfterSeconds}`,
    );
  }
  const selfPath = new URL(self).pathname.replace(/\/$/, '');
  return {
    l2,
    self,
    realm,
    timeoutMs,
    positiveTtlMs: ttl * 1000,
    maxEntries,
    maxRetryAfterSeconds,
    paths: {
      signIn: selfPath + routePath(options.paths?.signIn ?? '/auth/login'),
      callback: selfPath + routePath(options.paths?.callback ?? '/auth/callback'),
      notices: selfPath + NOTICE_PATH,
    },
    now: options.now ?? Date.now,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  };
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
