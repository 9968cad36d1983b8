import type { IncomingHttpHeaders } from 'node:http';

/** Who a token belongs to, as L2 said when it verified it. */
export interface L2User {
  /** The L2 username (the token's `sub`). */
  username: string;
  /** The L2 that issued the token (its `l2_server` claim). */
  l2Server: string;
  /** The L1 server the token is scoped to, or `null` for a plain user token. */
  l1Server: string | null;
  /** When the token expires. */
  expiresAt: Date;
}

/** A verified request: the user and the token they presented (to keep, or to hash). */
export interface AuthResult {
  user: L2User;
  token: string;
}

/** An HTTP answer as plain data; the adapters write it with their framework. */
export interface KitResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body?: string;
}

/** An HTTP request as plain data, for {@link L1Kit.routes}. */
export interface KitRequest {
  method: string;
  /** The request target as the client sent it (path and query), e.g. `req.originalUrl`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body: a parsed JSON value, a string/Buffer, or read lazily (only called for the notice route). */
  body: () => Promise<unknown>;
}

/**
 * A verified revocation notice (API.md §2.4): an OpenID Connect Back-Channel Logout token that L2 signed for this
 * L1 server. The application drops whatever it keeps for `tokenHash` (SHA-256 hex of the token string).
 */
export interface LogoutNotice {
  username: string;
  tokenHash: string;
  /** The session the revoked token came from (its `sid`), when it had one. */
  sid: string | undefined;
  /** The notice's id; the same on every delivery attempt. */
  jti: string;
  /** When the revoked token would have expired, when the notice says. */
  expiresAt: Date | undefined;
  /** The L2 that signed the notice. */
  issuer: string;
  issuedAt: Date;
}

/** What "Sign in with L2" hands the application at the callback. */
export interface SignInResult extends AuthResult {
  /** The answer the callback gives the browser: `303` to the local path sign-in started from, code stripped. */
  response: KitResponse;
}

/** RFC 8414 metadata, the fields the kit relies on (all present once {@link L1Kit.metadata} returns). */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  introspection_endpoint?: string;
  [field: string]: unknown;
}

/** The hooks the kit's routes call; `Context` is what the framework adapter passes (Express `{req,res}`, Koa `ctx`). */
export interface RouteHooks<Context> {
  /**
   * "Sign in with L2" completed: keep `result.token` server-side (your session) for `result.user`. The kit answers
   * the browser with `result.response` (a `303`) after this returns; headers you set on your response stay. If you
   * answer the browser yourself, the kit sends nothing (its sign-in cookie then expires on its own, in 10 minutes).
   * Without this hook the sign-in routes are not mounted.
   */
  onSignIn?: (result: SignInResult, context: Context) => void | Promise<void>;
  /**
   * A verified revocation notice, once per notice (a redelivered notice is refused, not passed on). Throwing makes
   * the receiver answer `500`, so L2 delivers it again later.
   */
  onLogout?: (notice: LogoutNotice) => void | Promise<void>;
}
