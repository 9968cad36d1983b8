/**
 * The transparency log's domain (`@l2/tlog`): RFC 6962 Merkle trees kept as C2SP tiles, checkpoints,
 * signed notes and proofs. Pure and self-contained — its files import only each other; hashing and
 * Ed25519 are injected — so that L2's own domain and application may use it under the dependency
 * rule, and the L1 kit runs the same checks as L2 (ADR 15).
 */
export * from './bytes.js';
export * from './checkpoint.js';
export * from './entry-bundle.js';
export * from './injected-crypto.js';
export * from './log-origin.js';
export * from './log-verifier.js';
export * from './merkle-hash.js';
export * from './note-keys.js';
export * from './proof-verification.js';
export * from './proofs.js';
export * from './range-hash-reader.js';
export * from './result.js';
export * from './right-edge.js';
export * from './signed-note.js';
export * from './subtree-hashes.js';
export * from './tile-constants.js';
export * from './tile-derivation.js';
export * from './tile-hash-reader.js';
export * from './tile-layout.js';
export * from './tile-path.js';
export * from './tlog-proof.js';
