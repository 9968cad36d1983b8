import type { Context, Next } from 'koa';
import { securityHeaderList } from '../shared/security-headers.js';

/**
 * Security headers on every answer (static files included), HSTS when PUBLIC_URL is https, and no caching of
 * anything that carries or describes a token.
 */
export function securityHeaders(options: { readonly https: boolean }) {
  const headers = securityHeaderList(options);
  return async (ctx: Context, next: Next): Promise<void> => {
    for (const [name, value] of headers) ctx.set(name, value);
    // Lower-cased as the router matches paths: /AUTH/me is the same route as /auth/me.
    // A target Koa cannot parse (`//%20@#`) has no path: query-limits refuses it, after these headers are set.
    const path = (ctx.path ?? '').toLowerCase();
    if (
      path.startsWith('/auth/') ||
      path === '/account' ||
      path === '/renderers' ||
      path.startsWith('/renderers/') ||
      path.startsWith('/oauth/')
    ) {
      ctx.set('Cache-Control', 'no-store');
    }
    await next();
  };
}

/**
 * A page depends on the cookie (the navigation names the signed-in user, forms carry their CSRF token): shared
 * caches must key on it, and a page rendered for a signed-in user, or holding a form, is never stored anywhere.
 * Call it once the body is rendered.
 */
export function personalPage(ctx: Context, signedIn: boolean): void {
  ctx.vary('Cookie');
  // A page with a form carries a CSRF token made for this browser's cookie (and a first visit sets that cookie):
  // it is one visitor's page too, and no cache may hand it to another.
  const carriesCsrfToken = typeof ctx.body === 'string' && ctx.body.includes('name="_csrf"');
  if (signedIn || carriesCsrfToken || ctx.response.get('Set-Cookie'))
    ctx.set('Cache-Control', 'private, no-store');
}
