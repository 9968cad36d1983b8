import type { KeyObject } from 'node:crypto';
import type { ClientSettings } from './client-document.js';
import { loadClientKey } from './client-key.js';
import type { FetchLike } from './http.js';
import { httpUrl, normaliseServerUrl } from './url.js';

/**
 * Document mode (API.md §2.5): the kit is a Client ID Metadata Document client. It serves its own client document at
 * `<self>/auth/client.json` — its `client_id` — and authenticates to L2 with `private_key_jwt`.
 */
export interface ClientOptions {
  /** A PKCS#8 PEM file with the client's private key (EC P-256 or RSA ≥ 2048 bits); created (P-256) if missing. */
  keyFile?: string;
  /** Or the private key itself: PKCS#8 PEM or a `KeyObject` (exactly one of `key` and `keyFile`). */
  key?: string | KeyObject;
  /** `client_name`, shown on L2's consent page next to this server's host (at most 100 characters). */
  name?: string;
  /** `client_uri`: a page about this server, linked from the consent page. */
  uri?: string;
  /** `logo_uri`: an https image shown on the consent page. */
  logoUri?: string;
}

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
  /**
   * Makes the kit a Client ID Metadata Document client (see {@link ClientOptions}): `client_id`, `l1_server` and the
   * notices' `aud` become the document's URL. Without it (the default) the kit is an L1 server URL client (`self`).
   */
  client?: ClientOptions;
  /** The `realm` of `WWW-Authenticate` challenges. Default: `self`. */
  realm?: string;
  /**
   * Where the kit's routes live, relative to `self`. The notice route is `/auth/revoke` (fixed by L2); the client
   * document (document mode only) is `/auth/client.json` unless set.
   */
  paths?: { signIn?: string; callback?: string; clientDocument?: string };
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
  /** The client document's path: set in document mode only. */
  clientDocument: string | undefined;
}

/** The options, checked, normalised and with their defaults: what the kit's parts are built from. */
export interface KitSettings {
  l2: string;
  self: string;
  /**
   * Who this server is to L2: the `client_id`, the `l1_server` sent to `/auth/verify` and expected in answers, and the
   * notices' `aud` — `self`, or in document mode the document's URL (API.md §2.5: one string everywhere).
   */
  audience: string;
  /** Document mode: the client document to serve and sign with; `undefined` for an L1 server URL client. */
  client: ClientSettings | undefined;
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
/** L2 ignores a longer `client_name` (API.md §2.5), so a longer one is a mistake worth stopping at. */
const MAX_CLIENT_NAME_LENGTH = 100;
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
  const selfUrl = new URL(self);
  const selfPath = selfUrl.pathname.replace(/\/$/, '');
  const paths: KitPaths = {
    signIn: selfPath + routePath(options.paths?.signIn ?? '/auth/login'),
    callback: selfPath + routePath(options.paths?.callback ?? '/auth/callback'),
    notices: selfPath + NOTICE_PATH,
    clientDocument: options.client
      ? selfPath + routePath(options.paths?.clientDocument ?? '/auth/client.json')
      : undefined,
  };
  const client = options.client && clientSettings(options.client, selfUrl.origin, paths);
  return {
    l2,
    self,
    audience: client?.clientId ?? self,
    client,
    realm,
    timeoutMs,
    positiveTtlMs: ttl * 1000,
    maxEntries,
    maxRetryAfterSeconds,
    paths,
    now: options.now ?? Date.now,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  };
}

/** The client document's contents, from the options and the kit's routes (all on `self`'s origin, as L2 requires). */
function clientSettings(options: ClientOptions, origin: string, paths: KitPaths): ClientSettings {
  const name = options.name;
  if (name !== undefined && (name.trim() === '' || name.length > MAX_CLIENT_NAME_LENGTH)) {
    throw new RangeError(`client.name must be 1 to ${MAX_CLIENT_NAME_LENGTH} characters`);
  }
  return {
    clientId: origin + paths.clientDocument!,
    redirectUri: origin + paths.callback,
    backchannelLogoutUri: origin + paths.notices,
    key: loadClientKey(options),
    name,
    uri: optionalUrl(options.uri, 'client.uri'),
    logoUri: optionalUrl(options.logoUri, 'client.logoUri'),
  };
}

function optionalUrl(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const url = httpUrl(value);
  if (!url || url.hash)
    throw new TypeError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  return url.href;
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
