/**
 * The cryptography this module needs, injected so that it stays free of `node:crypto` (the domain
 * imports nothing outside itself) and runs wherever the caller can supply SHA-256 and Ed25519.
 * `adapters/crypto/node-transparency-crypto.ts` (`@l2/tlog/node-crypto`) fills these with Node's implementations.
 */

/** SHA-256 over the concatenation of the parts (so callers never build a temporary buffer). */
export interface Sha256 {
  sha256(...parts: Uint8Array[]): Uint8Array;
}

/** Checks an Ed25519 signature (RFC 8032) of `message` under a raw 32-byte public key. Never throws. */
export type VerifyEd25519 = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

/** An Ed25519 private key, kept by the caller: only its raw public key and a signing function cross over. */
export interface Ed25519KeyPair {
  /** The raw 32-byte public key (RFC 8032 encoding). */
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}
