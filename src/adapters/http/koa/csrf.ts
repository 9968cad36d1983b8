import { createHmac, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Context } from 'koa';
import { CSRF_ERRORS } from './errors/edge-errors.js';
import { CSRF_COOKIE, readCookie, setCsrfCookie, type CookiePolicy } from './session-cookies.js';

/**
 * Signed double-submit CSRF protection: the browser holds a random `l2_csrf` cookie and each rendered form carries
 * HMAC(key, cookie, session). A cross-site page can neither read the cookie nor compute the HMAC, and it works before
 * sign-in too, which login and register forms need (login CSRF).
 */
export class CsrfGuard {
  constructor(
    private readonly key: KeyObject,
    private readonly cookies: CookiePolicy,
  ) {}

  /**
   * The token to embed in a form rendered for `session` (the viewer's token `jti`, or null when signed out); sets
   * the cookie first when the browser has none.
   */
  tokenFor(ctx: Context, session: string | null): string {
    let seed = readCookie(ctx, CSRF_COOKIE) ?? (ctx.state.csrfSeed as string | undefined);
    if (!seed) {
      seed = randomBytes(32).toString('base64url');
      ctx.state.csrfSeed = seed;
      setCsrfCookie(ctx, seed, this.cookies);
    }
    return this.sign(seed, session);
  }

  /** Throws `403 csrf_failed` unless the request carries the token made for its cookie and its session. */
  check(ctx: Context, session: string | null): void {
    const seed = readCookie(ctx, CSRF_COOKIE);
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const sent = ctx.get('X-CSRF-Token') || (typeof body?._csrf === 'string' ? body._csrf : '');
    if (!seed || !sent || !this.equal(this.sign(seed, session), sent)) {
      throw CSRF_ERRORS.problem({ type: 'csrf_failed' });
    }
  }

  /** Bound to the session too, so a seed planted in the browser cannot be paired with a token made elsewhere. */
  private sign(seed: string, session: string | null): string {
    return createHmac('sha256', this.key)
      .update(`csrf:${seed}:${session ?? 'signed-out'}`)
      .digest('base64url');
  }

  private equal(expected: string, actual: string): boolean {
    const a = Buffer.from(expected);
    const b = Buffer.from(actual);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
