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

/** An origin no browser is ever sent to: only the base a returnTo is resolved against, as the browser will. */
const LOCAL_BASE = 'http://l1.invalid';
/** What a browser reads as another host: `//host` and, in http(s) URLs, `/\host`. */
const OFF_SITE = /^\/[/\\]/;

/**
 * A local path to send a browser back to after sign-in, or `/`: the `pathname + search` of `value` resolved the way
 * the browser will resolve the `Location`, so every byte outside printable ASCII comes out percent-encoded (a value
 * Node refuses in a header could otherwise fail the answer) — never `//host` or `/\host`, not even after dot
 * segments resolve (`/.//host`), never another origin. The fragment is dropped.
 */
export function localPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || OFF_SITE.test(value) || /[\r\n\t]/.test(value)) {
    return '/';
  }
  let url: URL;
  try {
    url = new URL(value, LOCAL_BASE);
  } catch {
    return '/';
  }
  const path = url.pathname + url.search;
  return url.origin === LOCAL_BASE && !OFF_SITE.test(path) ? path : '/';
}
