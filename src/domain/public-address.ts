/**
 * PUBLIC_URL, read once: the one spelling every emitted URL uses (lower-case scheme and host, no default port, no
 * trailing slash) and the parts the service needs of it — the host signatures and passkeys are bound to, the origin
 * browsers report, the path an issuer's metadata repeats.
 */
export interface PublicAddress {
  /** The canonical URL, without a trailing slash: what every URL of the service starts with. */
  readonly url: string;
  readonly origin: string;
  /** Host and port (when not the scheme's default). */
  readonly host: string;
  /** Host without the port. */
  readonly hostname: string;
  /** The path below the origin, without a trailing slash ('' at the root). */
  readonly path: string;
  /** Served over https (cookies are then Secure). */
  readonly secure: boolean;
}

/** Reads a URL as the service's public address; throws a TypeError when it is not a URL. */
export function publicAddress(value: string): PublicAddress {
  const parsed = new URL(value);
  const path = parsed.pathname.replace(/\/+$/, '');
  return {
    url: `${parsed.origin}${path}`,
    origin: parsed.origin,
    host: parsed.host,
    hostname: parsed.hostname,
    path,
    secure: parsed.protocol === 'https:',
  };
}
