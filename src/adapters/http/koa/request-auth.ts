import type { Context } from 'koa';
import type { AuthenticatedToken } from '../../../application/services/authenticate-token.js';
import type { HttpDependencies } from './dependencies.js';
import { isScoped } from '../../../domain/token.js';
import { AUTHENTICATION } from './errors/account-errors.js';
import { SCOPED_TOKEN } from './errors/shared-refusals.js';
import { HttpProblem } from './problem.js';
import { readCookie, TOKEN_COOKIE } from './session-cookies.js';

export interface PresentedToken {
  readonly token: string;
  readonly source: 'bearer' | 'cookie';
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The token a request carries: the bearer header wins over the cookie. */
export function presentedToken(ctx: Context): PresentedToken | null {
  const header = ctx.get('Authorization');
  if (header) {
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match?.[1]) throw AUTHENTICATION.problem({ type: 'malformed_authorization' });
    return { token: match[1], source: 'bearer' };
  }
  const cookie = readCookie(ctx, TOKEN_COOKIE);
  return cookie ? { token: cookie, source: 'cookie' } : null;
}

/** A cookie is sent by the browser on its own, so an unsafe request it authenticates must prove it came from us. */
export function guardCookieRequest(ctx: Context, deps: HttpDependencies, presented: PresentedToken): void {
  if (presented.source !== 'cookie' || !UNSAFE_METHODS.has(ctx.method)) return;
  // The form was rendered for this session (or for a signed-out viewer, when the cookie no longer holds one).
  const session = deps.authentication.decodeUnexpired(presented.token);
  deps.csrf.check(ctx, session.ok ? session.value.claims.jti : null);
}

/** The caller's verified token, or a 401 problem. */
export async function requireAuth(ctx: Context, deps: HttpDependencies): Promise<AuthenticatedToken> {
  const presented = presentedToken(ctx);
  if (!presented) throw AUTHENTICATION.problem({ type: 'unauthenticated' });
  guardCookieRequest(ctx, deps, presented);
  const result = await deps.authentication.authenticate(presented.token);
  if (!result.ok) throw AUTHENTICATION.problem(result.error);
  return result.value;
}

/**
 * The caller's verified session token: a token scoped to an L1 server answers 403 before the body is judged (it
 * identifies its user to that server only, and writes nothing). The use-cases refuse such tokens too.
 */
export async function requireSession(ctx: Context, deps: HttpDependencies): Promise<AuthenticatedToken> {
  const session = await requireAuth(ctx, deps);
  if (isScoped(session.claims)) throw SCOPED_TOKEN.problem({ type: 'forbidden' });
  return session;
}

/** Who is looking at a page: the signed-in username, or null for an anonymous or stale session. */
export async function viewer(ctx: Context, deps: HttpDependencies): Promise<AuthenticatedToken | null> {
  if (ctx.state.viewer !== undefined) return ctx.state.viewer as AuthenticatedToken | null;
  let found: AuthenticatedToken | null = null;
  try {
    const presented = presentedToken(ctx);
    if (presented) {
      const result = await deps.authentication.authenticate(presented.token);
      found = result.ok ? result.value : null;
    }
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
  }
  ctx.state.viewer = found;
  return found;
}
