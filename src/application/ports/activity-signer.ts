/** A JSON-LD document as plain JSON. */
export type JsonLdDocument = Record<string, unknown>;

export interface SigningKey {
  /** PKCS#8 PEM of the publishing user's private key. */
  readonly privateKeyPem: string;
  /** The key's id, `<actor>#main-key`: the `creator` of the signature. */
  readonly keyId: string;
}

export interface ActivitySigner {
  /**
   * Returns the document with an RsaSignature2017 Linked Data Signature added as `signature` (URDNA2015,
   * RSA-SHA256), made with `created` as its time. Never fetches anything: contexts are bundled. Throws when the
   * document uses a term its `@context` does not define (it would be silently left unsigned).
   */
  sign(document: JsonLdDocument, key: SigningKey, created: Date): Promise<JsonLdDocument>;
}
