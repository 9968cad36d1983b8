// The headers every answer carries, whichever front end sends it (koa/security-headers.ts adds them in Koa).

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
