/** An incoming request as received, for checking its HTTP signature. */
export interface SignedRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly target: string;
  /** Header names lower-case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body's exact bytes (its digest is signed). */
  readonly body: Buffer;
}

export type SignatureVerdict =
  /** The request was signed with the key `keyId`, which belongs to the actor `owner`. */
  | { readonly ok: true; readonly keyId: string; readonly owner: string }
  | { readonly ok: false; readonly reason: string };

/** Checks HTTP signatures of requests from other servers, fetching (and keeping) the signers' public keys. */
export interface SignatureVerifier {
  /**
   * Whether `request` is signed by `actor`: a key on the actor's origin, owned by the actor. Nothing is fetched for
   * a key on another origin, and a key is kept only once a signature verified with it.
   */
  verify(request: SignedRequest, actor: string): Promise<SignatureVerdict>;
}
