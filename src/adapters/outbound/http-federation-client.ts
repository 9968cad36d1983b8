import { createPrivateKey, type KeyObject } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import type { JsonLdDocument, SigningKey } from '../../application/ports/activity-signer.js';
import type { Clock } from '../../application/ports/clock.js';
import type { DeliveryOutcome } from '../../application/ports/delivery-outcome.js';
import type {
  DocumentFetcher,
  FetchedDocument,
  FetchFailure,
  FetchResult,
} from '../../application/ports/document-fetcher.js';
import type {
  ActorLookup,
  FederationClient,
  NamedActorLookup,
  WebFingerLookup,
} from '../../application/ports/federation-client.js';
import type { FederationGate } from '../../application/ports/federation-gate.js';
import { httpUrl, isRecord, sameOrigin } from '../../domain/federation.js';
import { fetchFailureOf, NO_SUCH_NAME, trimmed } from './fetched-document.js';
import { askWebfinger, webfingerUrl } from './webfinger-request.js';
import { FetchSlots } from './fetch-slots.js';
import { digestOf, signedHeaders } from './http-signing.js';
import {
  mediaType,
  MAX_RESPONSE_BYTES,
  OutboundFailure,
  OutboundHttp,
  OUTBOUND_TIMEOUT_MS,
} from './outbound-request.js';
import { canParseUrl } from '../../domain/url-parse.js';

const AP_TYPE = 'application/activity+json';
const ACCEPT_AP =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const MAX_REDIRECTS = 3;
/** How long a fetched document is reused: the key check and the Follow that follows it need the same actor. */
const DOCUMENT_TTL_MS = 60_000;
const MAX_CACHED = 1000;
const ACTOR_TYPES = new Set(['Person', 'Service', 'Application', 'Group', 'Organization']);
const AS_TYPES = ['application/activity+json', 'application/ld+json', 'application/json'];

/** A fetched document with the URL that finally served it (after redirects). */
type Fetched = { readonly ok: true; readonly document: FetchedDocument; readonly url: string } | FetchFailure;

/** A gate that shuts nothing out: for clients made without the operator's rules (tests of the client itself). */
const EVERY_DOMAIN: FederationGate = {
  federatesWith: async () => true,
  federatesWithRecently: async () => true,
};

/** What a fetch from a domain a rule shuts out answers: no request made, nothing cached. */
const SHUT_OUT: FetchFailure = {
  ok: false,
  retryable: false,
  reason: 'L2 does not federate with this domain',
};

/** A 401 is retried too: the peer may not have fetched our key yet (Mastodon retries it as well). */
const outcomeOf = (status: number): DeliveryOutcome => OutboundHttp.outcomeOfStatus(status, [401]);

/**
 * Talks to other ActivityPub servers: deliveries POSTed and HTTP-signed with the author's key; documents fetched with
 * GETs signed by the service actor (servers in authorized-fetch mode refuse unsigned ones), at most 3 redirects, each
 * checked against the destination rules, 10 s for the whole fetch, answers of at most 1 MiB.
 */
export class HttpFederationClient implements FederationClient, DocumentFetcher {
  private readonly privateKeys = new LRUCache<string, KeyObject>({ max: MAX_CACHED });
  /** The JSON and digest of each document sent, while the document is alive: one activity goes to many inboxes. */
  private readonly bodies = new WeakMap<object, { body: string; digest: string }>();
  /** Documents fetched lately (the promise, so that concurrent asks share one fetch); failures are not kept. */
  private readonly documents = new LRUCache<string, Promise<FetchResult>>({
    max: MAX_CACHED,
    ttl: DOCUMENT_TTL_MS,
    perf: { now: () => this.clock.now().getTime() },
    ttlResolution: 0,
  });
  private readonly slots = new FetchSlots();

  constructor(
    private readonly http: OutboundHttp,
    private readonly instanceKey: () => Promise<SigningKey>,
    private readonly clock: Clock,
    options: {
      /** The operator's domain rules: asked before every fetch, each redirect hop and every delivery. */
      readonly gate?: FederationGate;
      /** L1_ALLOW_PRIVATE: WebFinger may be asked over http on loopback (tests, a development peer). */
      readonly httpOnLoopback?: boolean;
    } = {},
  ) {
    this.gate = options.gate ?? EVERY_DOMAIN;
    this.httpOnLoopback = options.httpOnLoopback ?? false;
  }

  private readonly gate: FederationGate;
  private readonly httpOnLoopback: boolean;

  async deliver(inbox: string, document: JsonLdDocument, key: SigningKey): Promise<DeliveryOutcome> {
    // Rules as read at most a second ago: a block already dropped the queued jobs it covers, in its own write.
    if (!(await this.gate.federatesWithRecently(inbox)))
      return { kind: 'dropped', reason: 'L2 does not federate with this domain' };
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
      const status = await this.http.post({ url: inbox, headers, body });
      return outcomeOf(status);
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return OutboundHttp.outcomeOf(error);
    }
  }

  async fetchActor(id: string): Promise<ActorLookup> {
    const fetched = await this.fetchDocument(id);
    if (!fetched.ok) return fetched;
    const actor = fetched.document;
    const inbox = httpUrl(actor.inbox);
    if (actor.id !== id) return { ok: false, retryable: false, reason: 'the document is another actor' };
    if (actor.type === undefined || !ACTOR_TYPES.has(actor.type))
      return { ok: false, retryable: false, reason: 'no actor' };
    if (inbox === null) return { ok: false, retryable: false, reason: 'the actor has no inbox' };
    return { ok: true, actor: { id, inbox, sharedInbox: httpUrl(actor.sharedInbox) } };
  }

  async lookUpActor(id: string, _options: { readonly fresh: true }): Promise<NamedActorLookup> {
    if (!(await this.gate.federatesWith([id]))) return SHUT_OUT;
    // Never the cached copy: whoever names an actor gets what its server says now (a move, new aliases).
    const fetched = await this.fetchInTurn(id, false, (url) => this.fetchUncached(url));
    if (!fetched.ok) {
      this.documents.delete(id);
      return fetched;
    }
    this.documents.set(id, Promise.resolve({ ok: true, document: fetched.document }));
    const actor = fetched.document;
    if (actor.id !== fetched.url)
      return { ok: false, retryable: false, reason: 'the document’s id is not the URL that served it' };
    if (actor.type === undefined || !ACTOR_TYPES.has(actor.type))
      return { ok: false, retryable: false, reason: 'the document is not an actor' };
    const inbox = httpUrl(actor.inbox);
    if (inbox === null || !sameOrigin(inbox, actor.id))
      return { ok: false, retryable: false, reason: 'the actor has no inbox on its own server' };
    const shared = httpUrl(actor.sharedInbox);
    return {
      ok: true,
      actor: {
        id: actor.id,
        inbox,
        sharedInbox: shared !== null && sameOrigin(shared, actor.id) ? shared : null,
        alsoKnownAs: actor.alsoKnownAs ?? [],
        movedTo: actor.movedTo ?? null,
      },
    };
  }

  async webfinger(user: string, host: string): Promise<WebFingerLookup> {
    const url = webfingerUrl(user, host, this.httpOnLoopback);
    if (url === null) return { ok: false, retryable: false, reason: 'not a host name' };
    const mayAsk = (next: string) => this.gate.federatesWith([next]);
    if (!(await mayAsk(url))) return SHUT_OUT;
    return this.fetchInTurn(url, false, (first) =>
      askWebfinger(this.http, first, this.httpOnLoopback, mayAsk),
    );
  }

  async fetchDocument(url: string, options: { known?: boolean } = {}): Promise<FetchResult> {
    // Before the cache: a document fetched before a block is not served after it.
    if (!(await this.gate.federatesWith([url]))) return SHUT_OUT;
    const cached = this.documents.get(url);
    if (cached) return cached;
    const result = this.fetchInTurn(url, options.known ?? false, (first) => this.fetchUncached(first)).then(
      (fetched): FetchResult => (fetched.ok ? { ok: true, document: fetched.document } : fetched),
    );
    this.documents.set(url, result);
    // Failures are not remembered: the next request tries again.
    void result.then((r) => (r.ok ? undefined : this.documents.delete(url)));
    return result;
  }

  forget(url: string): void {
    this.documents.delete(url);
  }

  /** Fetches once the destination's address has a slot (see FetchSlots); turned away at once when it has none. */
  private async fetchInTurn<T>(
    url: string,
    known: boolean,
    fetch: (url: string) => Promise<T | FetchFailure>,
  ): Promise<T | FetchFailure> {
    const destination = await this.destinationOf(url);
    if (typeof destination !== 'string') return destination;
    const slot = await this.slots.acquire(destination, known);
    if (!slot.ok) return { ok: false, retryable: true, busy: true, reason: slot.reason };
    try {
      return await fetch(url);
    } finally {
      slot.release();
    }
  }

  /** The address the fetch budgets count `url` against: its host's (first) address, an IPv6 one by /64. */
  private async destinationOf(url: string): Promise<string | FetchFailure> {
    if (!canParseUrl(url)) return { ok: false, retryable: false, reason: 'not a valid URL' };
    try {
      return destinationKey(await this.http.policy.addressOf(new URL(url).hostname));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      return NO_SUCH_NAME.has(code)
        ? { ok: false, retryable: false, reason: 'the host has no address' }
        : { ok: false, retryable: true, reason: 'the host’s name could not be resolved now' };
    }
  }

  private async fetchUncached(requested: string): Promise<Fetched> {
    let url = requested;
    // One deadline for the whole fetch, redirects included.
    const deadline = AbortSignal.timeout(OUTBOUND_TIMEOUT_MS);
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
          signal: deadline,
        });
        const location = response.headers.location;
        if (response.status >= 300 && response.status < 400 && location) {
          if (redirects >= MAX_REDIRECTS)
            return { ok: false, retryable: false, reason: 'too many redirects' };
          const next = httpUrl(canParseUrl(location, url) ? new URL(location, url).href : null);
          if (next === null)
            return { ok: false, retryable: false, reason: 'redirected to a URL that is not http(s)' };
          if (!(await this.gate.federatesWith([next]))) return SHUT_OUT;
          url = next;
          continue;
        }
        if (response.status !== 200) {
          const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
          return { ok: false, retryable, reason: `answered ${response.status}` };
        }
        const type = mediaType(response.headers);
        if (!AS_TYPES.includes(type))
          return {
            ok: false,
            retryable: false,
            reason: `answered ${type || 'no content type'}, not ActivityStreams JSON`,
          };
        let document: unknown;
        try {
          document = JSON.parse(response.body.toString('utf8'));
        } catch {
          return { ok: false, retryable: false, reason: 'answered malformed JSON' };
        }
        if (!isRecord(document))
          return { ok: false, retryable: false, reason: 'answered JSON that is not an object' };
        const kept = trimmed(document);
        // A redirect may lead elsewhere, but a server speaks only for its own origin.
        if (kept.id === undefined || !sameOrigin(kept.id, url))
          return {
            ok: false,
            retryable: false,
            reason: 'the document’s id is not on the origin that served it',
          };
        return { ok: true, document: kept, url };
      }
    } catch (error) {
      return fetchFailureOf(error);
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
      key = createPrivateKey(pem);
      this.privateKeys.set(pem, key);
    }
    return key;
  }
}

/** An IPv4 address as it is; an IPv6 address by its /64 (one machine, or one subscriber, holds a whole /64). */
function destinationKey(address: string): string {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
