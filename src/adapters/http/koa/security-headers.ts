import type { Context, Next } from 'koa';

/**
 * No inline script at all; forms may post anywhere because the attach form redirects to the L1 server. Pictures
 * may come from any https server: an asset's file, an avatar and a header live where their owner put them
 * (API.md §4.1, §4.2), and a page shows them without a referrer.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A year, the value browsers' preload lists ask for; only sent when the service is reached over https. */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** The headers every answer carries (the hot paths send the same ones). */
export function securityHeaderList(options: { readonly https: boolean }): readonly [string, string][] {
  return [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
    ...(options.https ? [['Strict-Transport-Security', STRICT_TRANSPORT_SECURITY] as [string, string]] : []),
  ];
}

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
      path.startsWith('/renderers/')
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
