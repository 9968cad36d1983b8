import { bytesEqual } from './bytes.js';
import type { Sha256 } from './injected-crypto.js';
import { HASH_SIZE, nodeHash } from './merkle-hash.js';

/**
 * Verification of inclusion and consistency proofs, step by step as RFC 9162 §2.1.3.2 and §2.1.4.2
 * write it. Sizes are JavaScript numbers, so the bit operations are spelled as arithmetic
 * (`>>` would cut them to 32 bits). Anything malformed — a size out of range, a hash of the wrong
 * length, a proof too short or too long — simply fails to verify.
 */

const isHash = (bytes: Uint8Array): boolean => bytes.length === HASH_SIZE;
const isSize = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
const lsb = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

function isPowerOfTwo(n: number): boolean {
  let power = 1;
  while (power < n) power *= 2;
  return power === n;
}

/** The root that `proof` gives for leaf `index` of a tree of `size`, or null when the proof cannot be one. */
export function rootFromInclusionProof(
  crypto: Sha256,
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Uint8Array | null {
  if (!isSize(index) || !isSize(size) || index >= size || !isHash(leaf) || !proof.every(isHash)) return null;
  let fn = index;
  let sn = size - 1;
  let root = leaf;
  for (const sibling of proof) {
    if (sn === 0) return null;
    if (lsb(fn) || fn === sn) {
      root = nodeHash(crypto, sibling, root);
      while (!lsb(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      root = nodeHash(crypto, root, sibling);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? root : null;
}

export function verifyInclusion(
  crypto: Sha256,
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  const computed = rootFromInclusionProof(crypto, index, size, leaf, proof);
  return computed !== null && bytesEqual(computed, root);
}

/**
 * True when `proof` shows the tree of `oldSize` with root `oldRoot` is a prefix of the tree of
 * `newSize` with root `newRoot`. Equal sizes need an empty proof and equal roots; a proof from the
 * empty tree is refused, as RFC 9162 defines none (every tree extends it — callers decide that).
 */
export function verifyConsistency(
  crypto: Sha256,
  oldSize: number,
  newSize: number,
  proof: readonly Uint8Array[],
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
): boolean {
  if (!isSize(oldSize) || !isSize(newSize) || !isHash(oldRoot) || !isHash(newRoot) || !proof.every(isHash)) {
    return false;
  }
  if (oldSize === newSize) return proof.length === 0 && bytesEqual(oldRoot, newRoot);
  if (oldSize === 0 || oldSize > newSize || proof.length === 0) return false;
  // A power-of-two old tree is a node of the new one: the proof leaves it out, the verifier starts from it.
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(crypto, c, fr);
      sr = nodeHash(crypto, c, sr);
      while (!lsb(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(crypto, sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && bytesEqual(fr, oldRoot) && bytesEqual(sr, newRoot);
}
