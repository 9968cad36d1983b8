import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { JsonLdDocument, SigningKey } from '../../application/ports/activity-signer.js';
import type { Clock } from '../../application/ports/clock.js';
import type { DeliveryOutcome } from '../../application/ports/delivery-outcome.js';
import type { FederationClient, RemoteActor } from '../../application/ports/federation-client.js';
import { httpUrl } from '../../domain/federation.js';
import { digestOf, signedHeaders } from './http-signatures.js';
import { MAX_RESPONSE_BYTES, OutboundFailure, type OutboundHttp } from './outbound-request.js';

const AP_TYPE = 'application/activity+json';
const ACCEPT_AP =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const MAX_REDIRECTS = 3;
/** How long a fetched document is reused: the key check and the Follow that follows it need the same actor. */
const DOCUMENT_TTL_MS = 60_000;
const MAX_CACHED = 1000;
const ACTOR_TYPES = new Set(['Person', 'Service', 'Application', 'Group', 'Organization']);

/** 2xx delivered; 401 (the peer may not have our key yet), 408, 429 and 5xx worth another try; other answers final. */
function outcomeOf(status: number): DeliveryOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const retry = status < 400 || status >= 500 || status === 401 || status === 408 || status === 429;
  return retry
    ? { kind: 'failed', reason: `answered ${status}` }
    : { kind: 'refused', reason: `answered ${status}` };
}

export type FetchResult =
  | { readonly ok: true; readonly document: Record<string, unknown> }
  | { readonly ok: false; readonly reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Talks to other ActivityPub servers: deliveries POSTed and HTTP-signed with the author's key; documents fetched with
 * GETs signed by the service actor (servers in authorized-fetch mode refuse unsigned ones), at most 3 redirects, each
 * checked against the destination rules, answers of at most 1 MiB.
 */
export class HttpFederationClient implements FederationClient {
  private readonly privateKeys = new Map<string, KeyObject>();
  /** The JSON and digest of each document sent, while the document is alive: one activity goes to many inboxes. */
  private readonly bodies = new WeakMap<object, { body: string; digest: string }>();
  private readonly documents = new Map<string, { at: number; result: Promise<FetchResult> }>();

  constructor(
    private readonly http: OutboundHttp,
    private readonly instanceKey: () => Promise<SigningKey>,
    private readonly clock: Clock,
  ) {}

  async deliver(inbox: string, document: JsonLdDocument, key: SigningKey): Promise<DeliveryOutcome> {
    const { body, digest } = this.bodyOf(document);
    try {
      const headers = await signedHeaders({
        method: 'POST',
        url: inbox,
        headers: { 'content-type': AP_TYPE, accept: AP_TYPE },
        body,
        digest,
        key: { keyId: key.keyId, privateKey: this.privateKey(key.privateKeyPem) },
        now: this.clock.now(),
      });
      const { status } = await this.http.send({
        method: 'POST',
        url: inbox,
        headers,
        body,
        maxResponseBytes: 0,
      });
      return outcomeOf(status);
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return error.kind === 'refused'
        ? { kind: 'refused', reason: error.message }
        : { kind: 'failed', reason: error.message };
    }
  }

  async fetchActor(id: string): Promise<RemoteActor | null> {
    const fetched = await this.fetchDocument(id);
    if (!fetched.ok || fetched.document.id !== id) return null;
    const actor = fetched.document;
    const inbox = httpUrl(actor.inbox);
    if (typeof actor.type !== 'string' || !ACTOR_TYPES.has(actor.type) || inbox === null) return null;
    const endpoints = isRecord(actor.endpoints) ? actor.endpoints : {};
    return { id, inbox, sharedInbox: httpUrl(endpoints.sharedInbox) ?? httpUrl(actor.sharedInbox) };
  }

  /**
   * The JSON object at `url` (without fragment); a non-JSON answer or any failure is `ok: false`. Callers check its
   * `id`. The same URL asked again within a minute answers from memory.
   */
  fetchDocument(url: string): Promise<FetchResult> {
    const now = this.clock.now().getTime();
    const cached = this.documents.get(url);
    if (cached && now - cached.at < DOCUMENT_TTL_MS) return cached.result;
    if (this.documents.size >= MAX_CACHED) this.documents.clear();
    const result = this.fetchUncached(url);
    this.documents.set(url, { at: now, result });
    // Failures are not remembered: the next request tries again.
    void result.then((r) => (r.ok ? undefined : this.documents.delete(url)));
    return result;
  }

  /** Forgets a fetched document, so that the next fetch asks its server again (a key that may have changed). */
  forget(url: string): void {
    this.documents.delete(url);
  }

  private async fetchUncached(requested: string): Promise<FetchResult> {
    let url = requested;
    try {
      for (let redirects = 0; ; redirects++) {
        const key = await this.instanceKey();
        const headers = await signedHeaders({
          method: 'GET',
          url,
          headers: { accept: ACCEPT_AP },
          key: { keyId: key.keyId, privateKey: this.privateKey(key.privateKeyPem) },
          now: this.clock.now(),
        });
        const response = await this.http.send({
          method: 'GET',
          url,
          headers,
          maxResponseBytes: MAX_RESPONSE_BYTES,
        });
        const location = response.headers.location;
        if (response.status >= 300 && response.status < 400 && location) {
          if (redirects >= MAX_REDIRECTS) return { ok: false, reason: 'too many redirects' };
          const next = httpUrl(URL.canParse(location, url) ? new URL(location, url).href : null);
          if (next === null) return { ok: false, reason: 'redirected to a URL that is not http(s)' };
          url = next;
          continue;
        }
        if (response.status !== 200) return { ok: false, reason: `answered ${response.status}` };
        const type = String(response.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim()
          .toLowerCase();
        if (!['application/activity+json', 'application/ld+json', 'application/json'].includes(type))
          return { ok: false, reason: `answered ${type || 'no content type'}, not ActivityStreams JSON` };
        let document: unknown;
        try {
          document = JSON.parse(response.body.toString('utf8'));
        } catch {
          return { ok: false, reason: 'answered malformed JSON' };
        }
        if (!isRecord(document)) return { ok: false, reason: 'answered JSON that is not an object' };
        return { ok: true, document };
      }
    } catch (error) {
      if (error instanceof OutboundFailure) return { ok: false, reason: error.message };
      throw error;
    }
  }

  private bodyOf(document: JsonLdDocument): { body: string; digest: string } {
    let sent = this.bodies.get(document);
    if (!sent) {
      const body = JSON.stringify(document);
      sent = { body, digest: digestOf(body) };
      this.bodies.set(document, sent);
    }
    return sent;
  }

  /** Parsing a PEM costs a good part of a signature; each key is parsed once. */
  private privateKey(pem: string): KeyObject {
    let key = this.privateKeys.get(pem);
    if (!key) {
      if (this.privateKeys.size >= MAX_CACHED) this.privateKeys.clear();
      key = createPrivateKey(pem);
      this.privateKeys.set(pem, key);
    }
    return key;
  }
}
