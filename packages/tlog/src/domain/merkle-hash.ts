import type { Sha256 } from './injected-crypto.js';

/**
 * The hashes of RFC 6962 §2.1 / RFC 9162 §2.1 with SHA-256. The one-byte prefixes keep a leaf from
 * ever being taken for an inner node (second-preimage resistance of the tree).
 */

export const HASH_SIZE = 32;

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

/** MTH({d}) = SHA-256(0x00 ‖ d). */
export const leafHash = (crypto: Sha256, entry: Uint8Array): Uint8Array => crypto.sha256(LEAF_PREFIX, entry);

/** SHA-256(0x01 ‖ left ‖ right). */
export const nodeHash = (crypto: Sha256, left: Uint8Array, right: Uint8Array): Uint8Array =>
  crypto.sha256(NODE_PREFIX, left, right);

/** MTH({}) = SHA-256() — the root of a log with no entry. */
export const emptyTreeHash = (crypto: Sha256): Uint8Array => crypto.sha256();
