import { timingSafeEqual } from 'node:crypto';
import { localPath } from './url.js';

const SIGN_IN_COOKIE = 'l1kit_signin';
export const SIGN_IN_LIFETIME_SECONDS = 600;

/** What a browser carries from the start of "Sign in with L2" to its callback. */
export interface SignInCookie {
  state: string;
  verifier: string;
  /** The local path to send the browser back to. */
  returnTo: string;
}

/**
 * The `Set-Cookie` value of the sign-in cookie (an empty value with `maxAgeSeconds` 0 removes it): scoped to the
 * callback path, `HttpOnly`, `SameSite=Lax` (the callback is a top-level GET from L2), `Secure` on https.
 */
export function signInCookie(
  cookie: SignInCookie | undefined,
  options: { self: string; callbackPath: string; maxAgeSeconds: number },
): string {
  const value = cookie
    ? Buffer.from(JSON.stringify([cookie.state, cookie.verifier, cookie.returnTo])).toString('base64url')
    : '';
  const secure = options.self.startsWith('https:') ? '; Secure' : '';
  return `${SIGN_IN_COOKIE}=${value}; Path=${options.callbackPath}; Max-Age=${options.maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The sign-in cookie of a `Cookie` header, or `undefined` when there is none or it is not one the kit wrote. */
export function readSignInCookie(header: string | undefined): SignInCookie | undefined {
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

/** Compares a secret without leaking, by timing, how much of it matched. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
