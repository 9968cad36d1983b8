import type { Sha256 } from './injected-crypto.js';
import { spanHashes, type LeafSpan, type StoredHashReader } from './subtree-hashes.js';

/**
 * Inclusion and consistency proofs (RFC 9162 §2.1.3.1 and §2.1.4.1) computed from kept hashes.
 * The recursions of the RFC only decide which subtrees the proof holds; their hashes are then read
 * in one batch, so a proof costs one round trip to the store or to the tiles.
 */

/** The largest power of two smaller than n (n > 1): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function checkSizes(lower: number, upper: number, what: string): void {
  if (!Number.isSafeInteger(lower) || !Number.isSafeInteger(upper) || lower < 0 || lower >= upper) {
    throw new RangeError(`${what}: need 0 <= ${lower} < ${upper}`);
  }
}

/** PATH(m, D[n]): the subtrees whose hashes prove leaf `index` in a tree of `size`, from the leaf's sibling up. */
export function inclusionProofSpans(index: number, size: number): LeafSpan[] {
  checkSizes(index, size, 'inclusion proof');
  const spans: LeafSpan[] = [];
  const path = (start: number, end: number): void => {
    if (end - start === 1) return;
    const k = splitPoint(end - start);
    if (index < start + k) {
      path(start, start + k);
      spans.push({ start: start + k, end });
    } else {
      path(start + k, end);
      spans.push({ start, end: start + k });
    }
  };
  path(0, size);
  return spans;
}

/** PROOF(m, D[n]): the subtrees whose hashes prove the tree of `oldSize` is a prefix of the tree of `newSize`. */
export function consistencyProofSpans(oldSize: number, newSize: number): LeafSpan[] {
  checkSizes(oldSize, newSize, 'consistency proof');
  if (oldSize === 0) throw new RangeError('consistency proof: nothing to prove from the empty tree');
  const spans: LeafSpan[] = [];
  const subproof = (m: number, start: number, end: number, isOldRoot: boolean): void => {
    if (m === end - start) {
      // The old tree's root itself is left out: the verifier already has it.
      if (!isOldRoot) spans.push({ start, end });
      return;
    }
    const k = splitPoint(end - start);
    if (m <= k) {
      subproof(m, start, start + k, isOldRoot);
      spans.push({ start: start + k, end });
    } else {
      subproof(m - k, start + k, end, false);
      spans.push({ start, end: start + k });
    }
  };
  subproof(oldSize, 0, newSize, true);
  return spans;
}

export const proveInclusion = (crypto: Sha256, reader: StoredHashReader, index: number, size: number) =>
  spanHashes(crypto, reader, inclusionProofSpans(index, size));

export const proveConsistency = (
  crypto: Sha256,
  reader: StoredHashReader,
  oldSize: number,
  newSize: number,
) => spanHashes(crypto, reader, consistencyProofSpans(oldSize, newSize));
