import type { DeliveryOutcome } from './delivery-outcome.js';
import type { JsonLdDocument, SigningKey } from './activity-signer.js';

/** What delivering to a remote actor needs to know of it. */
export interface RemoteActor {
  readonly id: string;
  readonly inbox: string;
  readonly sharedInbox: string | null;
}

export type ActorLookup =
  | { readonly ok: true; readonly actor: RemoteActor }
  | { readonly ok: false; readonly retryable: boolean; readonly reason: string };

/** An actor someone named (API.md §4.3), read afresh: what a block, an alias or a move needs of it. */
export interface NamedActor extends RemoteActor {
  /** Its `alsoKnownAs`: the http(s) URLs it lists (at most 16 kept), in its order. */
  readonly alsoKnownAs: readonly string[];
  /** Its `movedTo`, when it has moved. */
  readonly movedTo: string | null;
}

export type NamedActorLookup =
  | { readonly ok: true; readonly actor: NamedActor }
  | { readonly ok: false; readonly retryable: boolean; readonly reason: string };

/** What WebFinger says of `acct:user@host`: the URL of its ActivityPub actor (the `self` link). */
export type WebFingerLookup =
  | { readonly ok: true; readonly self: string }
  | { readonly ok: false; readonly retryable: boolean; readonly reason: string };

/** Requests to other ActivityPub servers, within the outbound rules (public addresses, timeouts, size caps). */
export interface FederationClient {
  /**
   * POSTs `document` to `inbox`, HTTP-signed with `key`: delivered on 2xx; failed (worth retrying) on network
   * errors, timeouts, 5xx, 401, 408 and 429; refused on other answers and forbidden destinations. Never throws for
   * delivery problems.
   */
  deliver(inbox: string, document: JsonLdDocument, key: SigningKey): Promise<DeliveryOutcome>;
  /**
   * The actor at `id`, fetched with a GET signed by the service actor. Not found when its server cannot be reached
   * or does not answer 200 now (`retryable`), or when the document is no actor, has no inbox, or its id is not `id`.
   */
  fetchActor(id: string): Promise<ActorLookup>;
  /**
   * The actor at `id` read afresh (never a cached copy; the copy kept for other lookups is replaced), with a GET
   * signed by the service actor, following at most 3 redirects. Refused (not `retryable`) unless the document's id
   * is the URL it was finally served from, its type is an actor's (Person, Service, Application, Group,
   * Organization) and it has an inbox on its own origin; `retryable` for want of an answer, as fetchActor.
   */
  lookUpActor(id: string, options: { readonly fresh: true }): Promise<NamedActorLookup>;
  /**
   * Asks `host` (host and port) who `acct:user@host` is: an unsigned GET of its `/.well-known/webfinger`, over https
   * (http only on loopback, where private destinations are allowed), within the outbound rules. The `self` link of
   * type `application/activity+json` (or `application/ld+json` with the ActivityStreams profile), else refused.
   */
  webfinger(user: string, host: string): Promise<WebFingerLookup>;
}
