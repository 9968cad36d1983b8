// WebFinger as L2 asks it (RFC 7033; API.md §4.3 "Resolving an actor someone names"): where to ask, the request
// itself, and how the `self` link of the answer is read.
import type { WebFingerLookup } from '../../application/ports/federation-client.js';
import { httpUrl, isRecord } from '../../domain/federation.js';
import { fetchFailureOf, text } from './fetched-document.js';
import { mediaType, MAX_RESPONSE_BYTES, OUTBOUND_TIMEOUT_MS, type OutboundHttp } from './outbound-request.js';
import { canParseUrl } from '../../domain/url-parse.js';

const MAX_REDIRECTS = 3;
const JRD_TYPES = ['application/jrd+json', 'application/json'];

const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * Where WebFinger is asked about `acct:user@host` (RFC 7033 §4): https — or http on a loopback host while private
 * destinations are allowed (tests, a development peer), as client documents are (domain/client-document.ts).
 */
export function webfingerUrl(user: string, host: string, httpOnLoopback: boolean): string | null {
  if (!canParseUrl(`https://${host}/`)) return null;
  const hostname = new URL(`https://${host}/`).hostname;
  const scheme = httpOnLoopback && isLoopbackHost(hostname) ? 'http' : 'https';
  const resource = encodeURIComponent(`acct:${user}@${host}`);
  return `${scheme}://${host}/.well-known/webfinger?resource=${resource}`;
}

/** Whether a redirect of a WebFinger request may be followed to `url`: the same schemes as the first request. */
export function webfingerRedirectAllowed(url: string, httpOnLoopback: boolean): boolean {
  const target = new URL(url);
  return (
    target.protocol === 'https:' ||
    (target.protocol === 'http:' && httpOnLoopback && isLoopbackHost(target.hostname))
  );
}

const AS_PROFILE = 'https://www.w3.org/ns/activitystreams';

/** A link type that names an ActivityStreams document: activity+json, or ld+json with the AS profile. */
function isActivityStreamsType(type: unknown): boolean {
  if (typeof type !== 'string') return false;
  const [media, ...parameters] = type.split(';').map((part) => part.trim());
  if (media?.toLowerCase() === 'application/activity+json') return true;
  if (media?.toLowerCase() !== 'application/ld+json') return false;
  return parameters.some((p) => /^profile\s*=\s*"?([^"]*)"?$/i.exec(p)?.[1]?.split(' ').includes(AS_PROFILE));
}

/** The `self` link of a JRD whose type is ActivityStreams, as an http(s) URL; null when it has none. */
export function selfLinkOf(jrd: unknown): string | null {
  if (!isRecord(jrd) || !Array.isArray(jrd.links)) return null;
  for (const link of jrd.links.slice(0, 64)) {
    if (!isRecord(link) || link.rel !== 'self' || !isActivityStreamsType(link.type)) continue;
    const href = httpUrl(text(link.href));
    if (href !== null) return href;
  }
  return null;
}

/** Asks WebFinger (unsigned: it is public), following at most 3 redirects to https (or loopback http). */
export async function askWebfinger(
  http: OutboundHttp,
  requested: string,
  httpOnLoopback: boolean,
  /** The operator's domain rules, asked of every redirect hop (the first URL was asked by the caller). */
  mayAsk: (url: string) => Promise<boolean>,
): Promise<WebFingerLookup> {
  let url = requested;
  const deadline = AbortSignal.timeout(OUTBOUND_TIMEOUT_MS);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await http.send({
        method: 'GET',
        url,
        headers: { accept: 'application/jrd+json' },
        maxResponseBytes: MAX_RESPONSE_BYTES,
        signal: deadline,
      });
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location) {
        if (redirects >= MAX_REDIRECTS) return { ok: false, retryable: false, reason: 'too many redirects' };
        const next = httpUrl(canParseUrl(location, url) ? new URL(location, url).href : null);
        if (next === null || !webfingerRedirectAllowed(next, httpOnLoopback))
          return { ok: false, retryable: false, reason: 'redirected to a URL that is not https' };
        if (!(await mayAsk(next)))
          return { ok: false, retryable: false, reason: 'L2 does not federate with this domain' };
        url = next;
        continue;
      }
      if (response.status !== 200) {
        const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
        const reason = response.status === 404 ? 'no such account' : `answered ${response.status}`;
        return { ok: false, retryable, reason };
      }
      if (!JRD_TYPES.includes(mediaType(response.headers)))
        return { ok: false, retryable: false, reason: 'answered something that is not a JRD' };
      let jrd: unknown;
      try {
        jrd = JSON.parse(response.body.toString('utf8'));
      } catch {
        return { ok: false, retryable: false, reason: 'answered malformed JSON' };
      }
      const self = selfLinkOf(jrd);
      if (self === null)
        return { ok: false, retryable: false, reason: 'the account has no ActivityPub actor' };
      return { ok: true, self };
    }
  } catch (error) {
    return fetchFailureOf(error);
  }
}
