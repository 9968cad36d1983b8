import type { Context, Next } from 'koa';

/** No inline script at all; forms may post anywhere because the attach form redirects to the L1 server. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Security headers on every answer, and no caching of anything that carries or describes a token. */
export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  if (ctx.path.startsWith('/auth/') || ctx.path === '/renderers' || ctx.path.startsWith('/renderers/')) {
    ctx.set('Cache-Control', 'no-store');
  }
  await next();
}
