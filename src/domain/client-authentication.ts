// Client authentication at the token, introspection and revocation endpoints (API.md §2.5): a caller names its
// client by `client_id` in the body, an HTTP Basic username with an empty password, or the iss/sub of a
// `client_assertion` — all of them the same client. L2 holds no secrets, so a secret is never ignored: it is refused.
import { err, ok, type Result } from './result.js';

/** RFC 7523 §2.2: the only client assertion type accepted. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** An assertion whose `exp` passed this long ago is still accepted (clocks differ). */
export const ASSERTION_EXPIRY_LEEWAY_SECONDS = 60;
/** An assertion may not live longer than this ahead of now. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 600;
/**
 * A `jti` is remembered this long after first use: an assertion accepted now expires at most
 * MAX_ASSERTION_LIFETIME_SECONDS ahead and is accepted ASSERTION_EXPIRY_LEEWAY_SECONDS past that, so within this
 * window every replay is seen, and after it the assertion is refused as expired anyway.
 */
export const ASSERTION_REPLAY_WINDOW_SECONDS =
  MAX_ASSERTION_LIFETIME_SECONDS + ASSERTION_EXPIRY_LEEWAY_SECONDS;
const MAX_JTI_LENGTH = 256;

/** What a request says about its client, as the HTTP edge read it (nothing checked yet). */
export interface ClientCredentials {
  /** `client_id` of the body; null when absent. A repeated one arrives as `malformed`. */
  readonly bodyClientId: string | null;
  /** The Basic credentials of `Authorization`, decoded; null without a Basic header. */
  readonly basic: { readonly username: string; readonly password: string } | null;
  /** `client_assertion_type` and `client_assertion`, when either is given. */
  readonly assertion: {
    readonly type: string | null;
    readonly jwt: string | null;
    /** The assertion's unverified `iss` and `sub` (what it claims to be). */
    readonly issuer: string | null;
    readonly subject: string | null;
  } | null;
  /** Whether a `client_secret` was sent. */
  readonly secret: boolean;
  /** Set by the edge when the credentials cannot be read (a repeated field, a Basic header that is not base64). */
  readonly malformed: string | null;
}

export const NO_CLIENT_CREDENTIALS: ClientCredentials = {
  bodyClientId: null,
  basic: null,
  assertion: null,
  secret: false,
  malformed: null,
};

/** Who the caller says it is: its client_id, and the assertion to check (when it sent one). */
export interface ClaimedClient {
  readonly clientId: string;
  readonly assertion: string | null;
}

/**
 * The client a request names, or null when it names none; refused when a secret is sent, the names disagree, or an
 * assertion is incomplete. Nothing is checked against the client yet.
 */
export function claimedClient(credentials: ClientCredentials): Result<ClaimedClient | null, string> {
  if (credentials.malformed !== null) return err(credentials.malformed);
  const secret = secretRefusal(credentials);
  if (secret !== null) return err(secret);
  const names: string[] = [];
  if (credentials.bodyClientId !== null) names.push(credentials.bodyClientId);
  if (credentials.basic !== null) names.push(credentials.basic.username);
  const assertion = credentials.assertion;
  if (assertion !== null) {
    if (assertion.type !== JWT_BEARER_ASSERTION)
      return err(`client_assertion_type must be ${JWT_BEARER_ASSERTION}.`);
    if (assertion.jwt === null) return err('client_assertion is missing.');
    if (assertion.issuer === null || assertion.issuer !== assertion.subject)
      return err('The client assertion’s iss and sub must both be the client_id.');
    names.push(assertion.issuer);
  }
  const [first] = names;
  if (first === undefined) return ok(null);
  if (names.some((name) => name !== first)) return err('The client is named more than once, differently.');
  return ok({ clientId: first, assertion: assertion?.jwt ?? null });
}

/**
 * Why the credentials are refused whatever else they say — they carry a secret, and L2 holds none and never ignores
 * one — or null.
 */
export function secretRefusal(credentials: ClientCredentials): string | null {
  if (credentials.secret) return 'A client_secret is refused: L2 holds no client secrets.';
  if (credentials.basic !== null && credentials.basic.password !== '')
    return 'A Basic password is refused: L2 holds no client secrets.';
  return null;
}

/** The claims of a verified client assertion that L2 reads. */
export interface AssertionClaims {
  readonly iss?: unknown;
  readonly sub?: unknown;
  readonly aud?: unknown;
  readonly exp?: unknown;
  readonly jti?: unknown;
}

/**
 * Whether a client assertion whose signature verified may authenticate `clientId` now (RFC 7523 §3): iss = sub = the
 * client, `aud` containing one of `audiences`, `exp` passed by no more than the leeway and not too far ahead, and a
 * `jti` to remember. Answers the jti.
 */
export function checkAssertionClaims(
  claims: AssertionClaims,
  clientId: string,
  audiences: readonly string[],
  nowSeconds: number,
): Result<string, string> {
  if (claims.iss !== clientId || claims.sub !== clientId)
    return err('The client assertion’s iss and sub must both be the client_id.');
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.some((value) => typeof value === 'string' && audiences.includes(value)))
    return err('The client assertion’s aud must name this server (its issuer or the endpoint).');
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp))
    return err('The client assertion needs exp.');
  if (claims.exp < nowSeconds - ASSERTION_EXPIRY_LEEWAY_SECONDS)
    return err('The client assertion has expired.');
  if (claims.exp > nowSeconds + MAX_ASSERTION_LIFETIME_SECONDS)
    return err(`The client assertion may live at most ${MAX_ASSERTION_LIFETIME_SECONDS} seconds.`);
  if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > MAX_JTI_LENGTH)
    return err('The client assertion needs a jti (at most 256 characters).');
  return ok(claims.jti);
}
