// What the federation client keeps of the documents it fetches, and how it reads a WebFinger answer: pure reading
// of parsed JSON, so that the client itself is only about requests.
import type { FetchedDocument, FetchFailure } from '../../application/ports/document-fetcher.js';
import { httpUrl, isRecord } from '../../domain/federation.js';
import { OutboundFailure } from './outbound-request.js';

/** DNS answers that say a name has no address: as final as a 404 (and no different from one to whoever asks). */
export const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** The most public keys read from one document, and the longest PEM kept. */
const MAX_KEYS = 8;
const MAX_PEM_LENGTH = 16 * 1024;
/** The most `alsoKnownAs` entries kept: Mastodon allows a handful; a longer list is not read past this. */
export const MAX_ALSO_KNOWN_AS = 16;

export const text = (value: unknown, max = 2048): string | undefined =>
  typeof value === 'string' && value.length <= max ? value : undefined;

/** The http(s) URLs of a link list (`"https://…"`, `["https://…"]`, or objects with such an `id`), at most `max`. */
function urlsOf(value: unknown, max: number): string[] {
  const entries = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const urls: string[] = [];
  for (const entry of entries.slice(0, max * 4)) {
    const url = httpUrl(text(isRecord(entry) ? entry.id : entry));
    if (url !== null && !urls.includes(url)) urls.push(url);
    if (urls.length === max) break;
  }
  return urls;
}

/** The fields an actor or key lookup reads, nothing else: a 1 MiB answer costs its parse and then a few kilobytes. */
export function trimmed(document: Record<string, unknown>): FetchedDocument {
  const keys = Array.isArray(document.publicKey) ? document.publicKey : [document.publicKey];
  const endpoints = isRecord(document.endpoints) ? document.endpoints : {};
  return {
    id: text(document.id),
    type: text(document.type, 64),
    inbox: text(document.inbox),
    sharedInbox: text(endpoints.sharedInbox) ?? text(document.sharedInbox),
    owner: text(document.owner),
    publicKeyPem: text(document.publicKeyPem, MAX_PEM_LENGTH),
    publicKey: keys
      .slice(0, MAX_KEYS)
      .filter(isRecord)
      .map((key) => ({
        id: text(key.id),
        owner: text(key.owner),
        publicKeyPem: text(key.publicKeyPem, MAX_PEM_LENGTH),
      })),
    alsoKnownAs: urlsOf(document.alsoKnownAs, MAX_ALSO_KNOWN_AS),
    movedTo: httpUrl(text(isRecord(document.movedTo) ? document.movedTo.id : document.movedTo)) ?? undefined,
  };
}

/** Why a request got no answer, as a fetch failure: a refused destination or an answer too long is final. */
export function fetchFailureOf(error: unknown): FetchFailure {
  if (!(error instanceof OutboundFailure)) throw error;
  const final =
    error.kind === 'refused' ||
    error.kind === 'too_large' ||
    (error.code !== undefined && NO_SUCH_NAME.has(error.code));
  return { ok: false, retryable: !final, reason: error.message };
}
