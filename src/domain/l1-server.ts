import { err, ok, type Result } from './result.js';

/** An L1 server URL in canonical form; two URLs name the same server exactly when their canonical forms are equal. */
export type L1ServerUrl = string & { readonly __brand: 'L1ServerUrl' };

export type L1ServerUrlError = 'invalid_l1_server';

/**
 * Canonical form: absolute http(s) URL without userinfo, query or fragment; scheme and host lower-cased (IDN hosts
 * in punycode), default port removed, a trailing dot of the host removed, dot segments resolved, trailing `/`
 * removed. `https://L1.Example:443/` and `https://l1.example` are the same server; `/a` and `/b` are not.
 */
export function normaliseL1Server(input: string): Result<L1ServerUrl, L1ServerUrlError> {
  if (input.length === 0 || input.length > 2048 || /[?#\s]/.test(input)) return err('invalid_l1_server');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return err('invalid_l1_server');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return err('invalid_l1_server');
  if (url.username !== '' || url.password !== '' || input.includes('@')) return err('invalid_l1_server');
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === '' || hostname.endsWith('.')) return err('invalid_l1_server');
  const port = url.port === '' ? '' : `:${url.port}`;
  const path = url.pathname.replace(/\/+$/, '');
  return ok(`${url.protocol}//${hostname}${port}${path}` as L1ServerUrl);
}

/** The URL an L1 server receives revocation notices on. */
export function revocationNoticeUrl(l1Server: L1ServerUrl): string {
  return `${l1Server}/auth/revoke`;
}

/** The URL a browser is sent to after a renderer attach; the token travels only in this Location. */
export function attachCallbackUrl(l1Server: L1ServerUrl, token: string): string {
  return `${l1Server}/auth/callback?token=${encodeURIComponent(token)}`;
}

/**
 * L1 servers one user may have attached at once. Each attachment can cause revocation notices; the cap keeps one
 * account from turning L2 into a source of requests aimed at many hosts.
 */
export const MAX_ATTACHED_L1_SERVERS = 20;

/**
 * Live tokens one user may hold for one L1 server. Attaching again beyond it revokes the oldest, so a detach or a
 * logout sends that server a bounded number of notices however often the user attached.
 */
export const MAX_TOKENS_PER_L1_SERVER = 5;
