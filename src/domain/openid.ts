// OpenID Connect on "Sign in with L2" (API.md §2.5): what an authorization request adds to §2.3 (scope, nonce,
// prompt, max_age), when the person must sign in again first, and the claims of the ID token and of UserInfo.
import { err, ok, type Result } from './result.js';
import { methodsOf, type SignInMethods } from './sign-in-methods.js';
import type { TokenClaims } from './token.js';

/** RFC 6749 §4.1.2.1 / OpenID Connect Core §3.1.2.6 errors sent back to `redirect_uri` (API.md §2.5). */
export type AuthorizationRedirectErrorCode =
  | 'access_denied'
  | 'invalid_request'
  | 'login_required'
  | 'consent_required'
  | 'request_not_supported'
  | 'request_uri_not_supported';

export interface AuthorizationRedirectError {
  readonly error: AuthorizationRedirectErrorCode;
  readonly description: string;
}

/** A nonce is copied into the ID token; longer ones are refused rather than carried through URLs and tokens. */
export const MAX_NONCE_LENGTH = 512;
/** An ID token lives this long: it proves a sign-in to the client at once, and is not a credential after. */
export const ID_TOKEN_LIFETIME_SECONDS = 300;
/** The scope an access token of `/oauth/token` carries when the request was not an OpenID Connect one. */
export const L1_SCOPE = 'l1';

/** What the OpenID Connect parameters of one request ask for. */
export interface OpenIdParameters {
  /** `openid` was in `scope`: the request is an OpenID Connect request, and its code gives an ID token. */
  readonly openid: boolean;
  /** `profile` with `openid`: the profile claims are shared. */
  readonly profile: boolean;
  readonly nonce: string | null;
  readonly prompt: ReadonlySet<'none' | 'login' | 'consent'>;
  /** Seconds; `max_age=0` is read as `prompt=login`. */
  readonly maxAge: number | null;
}

/** The parameters API.md §2.5 reads, each at most once; a repeated one arrives as an array. */
export const OPENID_PARAMETERS = [
  'scope',
  'nonce',
  'prompt',
  'max_age',
  'response_mode',
  'request',
  'request_uri',
] as const;

const refuse = (error: AuthorizationRedirectErrorCode, description: string) => err({ error, description });

/**
 * Reads the OpenID Connect parameters of a request whose client and redirect URI are verified already: every
 * refusal here goes back to the client as a redirect. Ignored: `l1` and unknown scopes, unknown prompt values,
 * `login_hint`, `id_token_hint`, `acr_values`, `display`, `ui_locales`, `claims_locales`.
 */
export function parseOpenIdParameters(
  query: Readonly<Record<string, unknown>>,
): Result<OpenIdParameters, AuthorizationRedirectError> {
  for (const name of OPENID_PARAMETERS) {
    const value = query[name];
    if (value !== undefined && typeof value !== 'string')
      return refuse('invalid_request', `${name} is given more than once.`);
  }
  const text = (name: (typeof OPENID_PARAMETERS)[number]) => query[name] as string | undefined;
  if (text('request') !== undefined)
    return refuse('request_not_supported', 'Request objects (request) are not supported.');
  if (text('request_uri') !== undefined)
    return refuse('request_uri_not_supported', 'request_uri is not supported.');
  const responseMode = text('response_mode');
  if (responseMode !== undefined && responseMode !== 'query')
    return refuse('invalid_request', 'response_mode must be query.');
  const scopes = new Set((text('scope') ?? '').split(' ').filter((s) => s !== ''));
  const openid = scopes.has('openid');
  const nonce = text('nonce') ?? null;
  if (nonce !== null && nonce.length > MAX_NONCE_LENGTH)
    return refuse('invalid_request', `nonce must be at most ${MAX_NONCE_LENGTH} characters.`);
  const prompt = new Set(
    (text('prompt') ?? '')
      .split(' ')
      .filter((p): p is 'none' | 'login' | 'consent' => p === 'none' || p === 'login' || p === 'consent'),
  );
  if (prompt.has('none') && prompt.size > 1)
    return refuse('invalid_request', 'prompt=none cannot be combined with another value.');
  const maxAgeText = text('max_age');
  if (maxAgeText !== undefined && !/^\d{1,10}$/.test(maxAgeText))
    return refuse('invalid_request', 'max_age must be a whole number of seconds, 0 or more.');
  const maxAge = maxAgeText === undefined ? null : Number(maxAgeText);
  return ok({ openid, profile: openid && scopes.has('profile'), nonce, prompt, maxAge });
}

/**
 * Whether the browser's session may answer this request, or its person must sign in first (API.md §2.5):
 * `prompt=login` or `max_age=0` asks for a sign-in completed after the request arrived, `max_age=N` for one at most N
 * seconds before it. `signedInAfter` is when the request first arrived when it sent the browser to sign in (so the
 * sign-in it asked for is recognised on the way back), null otherwise.
 */
export function signInNeeded(input: {
  params: OpenIdParameters;
  session: TokenClaims | null;
  /** The request's arrival, in seconds. */
  now: number;
  signedInAfter: number | null;
}): boolean {
  const { params, session, signedInAfter } = input;
  if (session === null) return true;
  if (signedInAfter !== null && session.iat >= signedInAfter) return false;
  const arrived = signedInAfter ?? input.now;
  if (params.prompt.has('login') || params.maxAge === 0) return true;
  return params.maxAge !== null && arrived - session.iat > params.maxAge;
}

/** What a code granted for an OpenID Connect request remembers (its session gives auth_time, amr and sid). */
export interface OpenIdGrant {
  /** The granted scope string: `openid l1` or `openid profile l1`. */
  readonly scope: string;
  readonly nonce: string | null;
}

export const openIdGrantOf = (params: OpenIdParameters): OpenIdGrant | null =>
  params.openid ? { scope: params.profile ? 'openid profile l1' : 'openid l1', nonce: params.nonce } : null;

export const scopeHas = (scope: string | undefined, value: string): boolean =>
  scope !== undefined && scope.split(' ').includes(value);

/** The profile claims of API.md §2.5, shared with `profile`. */
export interface ProfileClaims {
  readonly preferred_username: string;
  readonly name: string;
  readonly picture?: string;
  readonly profile: string;
}

export function profileClaims(input: {
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
  actorUrl: string;
}): ProfileClaims {
  return {
    preferred_username: input.username,
    name: input.displayName ?? input.username,
    ...(input.avatarUrl === null ? {} : { picture: input.avatarUrl }),
    profile: input.actorUrl,
  };
}

/** The claims of an ID token (OpenID Connect Core §2, API.md §2.5). */
export interface IdTokenClaims extends Partial<ProfileClaims> {
  readonly iss: string;
  readonly sub: string;
  readonly aud: string;
  readonly azp: string;
  readonly iat: number;
  readonly exp: number;
  readonly auth_time: number;
  readonly nonce?: string;
  readonly amr: SignInMethods;
  readonly sid: string;
}

/** The ID token of a code granted by `session` to `clientId`, issued at `now` (seconds). */
export function idTokenClaims(input: {
  issuer: string;
  clientId: string;
  session: TokenClaims;
  grant: OpenIdGrant;
  now: number;
  profile: ProfileClaims | null;
}): IdTokenClaims {
  const { session, grant } = input;
  return {
    iss: input.issuer,
    sub: session.sub,
    aud: input.clientId,
    azp: input.clientId,
    iat: input.now,
    exp: input.now + ID_TOKEN_LIFETIME_SECONDS,
    auth_time: session.iat,
    ...(grant.nonce === null ? {} : { nonce: grant.nonce }),
    amr: [...methodsOf(session)],
    sid: session.jti,
    ...(input.profile ?? {}),
  };
}
