export interface KeyPair {
  /** SPKI PEM, as ActivityPub peers expect in `publicKeyPem`. */
  readonly publicKeyPem: string;
  /** PKCS#8 PEM. */
  readonly privateKeyPem: string;
}

export interface KeyPairGenerator {
  /** Generates an RSA-2048 key pair off the event loop. */
  generate(): Promise<KeyPair>;
}
