/**
 * The server URL normalisation of API.md §1, used for the kit's own URL (`self`, the `l1_server` it sends and the
 * `aud` it expects) and for L2's URL (the issuer it expects): an absolute http(s) URL without userinfo, query or
 * fragment; scheme and host lower-cased, default port dropped, dot segments resolved (all done by WHATWG `URL`),
 * trailing `/` dropped.
 */
export function normaliseServerUrl(input: string, what: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new TypeError(`${what} must be an absolute http(s) URL, got ${JSON.stringify(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${what} must be an http: or https: URL, got ${JSON.stringify(input)}`);
  }
  if (url.username || url.password || url.search || url.hash || /[?#]/.test(input)) {
    throw new TypeError(`${what} must have no userinfo, query or fragment, got ${JSON.stringify(input)}`);
  }
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

/** `true` when `value` parses and normalises to `expected` (already normalised). */
export function sameServerUrl(value: unknown, expected: string): boolean {
  if (typeof value !== 'string') return false;
  try {
    return normaliseServerUrl(value, 'url') === expected;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL, or `undefined`. */
export function httpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A local path to send a browser back to after sign-in (`/…`, never `//host` or `/\host`), or `/`. */
export function localPath(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    /^\/[/\\]/.test(value) ||
    /[\r\n\t]/.test(value)
  ) {
    return '/';
  }
  return value;
}
