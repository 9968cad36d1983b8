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
}
