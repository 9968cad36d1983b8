import type { Context } from 'koa';

export const TOKEN_COOKIE = 'l2_token';
export const CSRF_COOKIE = 'l2_csrf';
const THIRTY_DAYS_SECONDS = 2_592_000;

export interface CookiePolicy {
  /** `Secure` is added when PUBLIC_URL is https. */
  readonly secure: boolean;
}

/**
 * Set-Cookie is written by hand because the `cookies` module emits `expires` rather than the `Max-Age` API.md
 * fixes, and never sets SameSite by default.
 */
function cookie(name: string, value: string, maxAge: number, policy: CookiePolicy): string {
  return `${name}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${policy.secure ? '; Secure' : ''}`;
}

export function setTokenCookie(ctx: Context, token: string, policy: CookiePolicy): void {
  ctx.append('Set-Cookie', cookie(TOKEN_COOKIE, token, THIRTY_DAYS_SECONDS, policy));
}

export function clearTokenCookie(ctx: Context, policy: CookiePolicy): void {
  ctx.append('Set-Cookie', cookie(TOKEN_COOKIE, '', 0, policy));
}

export function setCsrfCookie(ctx: Context, value: string, policy: CookiePolicy): void {
  ctx.append('Set-Cookie', cookie(CSRF_COOKIE, value, THIRTY_DAYS_SECONDS, policy));
}

export function readCookie(ctx: Context, name: string): string | undefined {
  const value = ctx.cookies.get(name);
  return value === undefined || value === '' ? undefined : value;
}
