/** An incoming request as received, for checking its HTTP signature. */
export interface SignedRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly target: string;
  /** Header names lower-case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body's exact bytes (its digest is signed). */
  readonly body: Buffer;
  /** The client the request came from, as the per-address limits count it: its budget of unknown keys. */
  readonly clientAddress: string;
}

/**
 * Why a signature was refused, as a short fixed word: what operators count (a metric label) and log. Peers are told
 * none of it — a reason such as "the key's server refused the connection" would make the inbox a port scanner.
 */
export const SIGNATURE_REFUSALS = [
  'unsigned',
  'malformed',
  'date',
  'digest',
  'host',
  'key_origin',
  'key_unusable',
  'key_unreachable',
  'signature',
  'signer',
  'replay',
] as const;
export type SignatureRefusal = (typeof SIGNATURE_REFUSALS)[number];

/** The request was signed with the key `keyId`, which belongs to the actor `owner`. */
export interface SignatureAccepted {
  readonly ok: true;
  readonly keyId: string;
  readonly owner: string;
}

/** Refused for good: the request, its key or its signer is wrong. `reason` is for the log only. */
export interface SignatureRefused {
  readonly ok: false;
  readonly kind: 'refused';
  readonly refusal: SignatureRefusal;
  readonly reason: string;
}

/**
 * Not decided now: the key could not be fetched because of the network or this service's own load (`unavailable`),
 * or this client asked for too many unknown keys (`rate_limited`). Nothing was remembered against the key: the same
 * request may be sent again after `retryAfterSeconds`.
 */
export interface SignatureRetryLater {
  readonly ok: false;
  readonly kind: 'unavailable' | 'rate_limited';
  readonly reason: string;
  readonly retryAfterSeconds: number;
}

export type SignatureVerdict = SignatureAccepted | SignatureRefused | SignatureRetryLater;

/** Checks HTTP signatures of requests from other servers, fetching (and keeping) the signers' public keys. */
export interface SignatureVerifier {
  /**
   * Whether `request` is signed by `actor`: a key on the actor's origin, owned by the actor. Nothing is fetched for
   * a key on another origin, and a key is kept only once a signature verified with it.
   */
  verify(request: SignedRequest, actor: string): Promise<SignatureVerdict>;
  /**
   * The key id the request's signature names, read from its headers only — nothing verified or fetched — so that the
   * inbox can judge the key's host before anything else; null when it names none.
   */
  keyIdOf(request: SignedRequest): string | null;
}
