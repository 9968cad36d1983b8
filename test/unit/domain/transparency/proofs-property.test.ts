import { expect } from 'chai';
import fc from 'fast-check';
import { nodeSha256 as crypto } from '@l2/tlog/node-crypto';
import {
  emptyTreeHash,
  leafHash,
  nodeHash,
  proveConsistency,
  proveInclusion,
  splitPoint,
  treeHash,
  verifyConsistency,
  verifyInclusion,
} from '@l2/tlog';
import { MemoryTransparencyLog } from '../../../support/memory-transparency-log.js';

/**
 * Proofs built from a store filled by the right-edge append (leaf hashes and one hash per full tile
 * at each level, nothing else) must verify against roots computed from scratch, by the recursive
 * definition of RFC 6962 over the leaf hashes — around the tile edges where the two differ most.
 */

const noKey = { publicKey: new Uint8Array(32), sign: () => new Uint8Array(64) };
const TILE_EDGE_SIZES = [1, 2, 3, 255, 256, 257, 511, 512, 513, 65_535, 65_536, 65_537];
const LARGEST = 65_600;
const entry = (i: number) => new Uint8Array([i & 0xff, (i >> 8) & 0xff, i >> 16, 0x2a]);

/** MTH(D[start:end]) straight from RFC 6962 §2.1, sharing nothing with the code under test. */
function referenceRoot(leaves: readonly Uint8Array[], start: number, end: number): Uint8Array {
  if (end === start) return emptyTreeHash(crypto);
  if (end - start === 1) return leaves[start]!;
  let k = 1;
  while (k * 2 < end - start) k *= 2;
  return nodeHash(crypto, referenceRoot(leaves, start, start + k), referenceRoot(leaves, start + k, end));
}

describe('transparency: proofs from a right-edge-built store, against roots from scratch', function () {
  const log = new MemoryTransparencyLog('example.com/log', noKey);
  let leaves: Uint8Array[] = [];
  const rootAt = new Map<number, Uint8Array>();

  before(() => {
    for (let i = 0; i < LARGEST; i++) log.append(entry(i));
    leaves = log.entries.map((e) => leafHash(crypto, e));
    for (const size of [0, ...TILE_EDGE_SIZES, LARGEST]) rootAt.set(size, referenceRoot(leaves, 0, size));
  });

  const sizeOnEdge = fc.constantFrom(...TILE_EDGE_SIZES);
  const rootOf = (size: number) => rootAt.get(size) ?? referenceRoot(leaves, 0, size);

  it('splits where RFC 6962 does (largest power of two below n)', () => {
    expect([2, 3, 4, 5, 8, 9, 256, 257].map(splitPoint)).to.deep.equal([1, 2, 2, 4, 4, 8, 128, 256]);
  });

  it('gives the reference root at every tile-edge size, and the empty hash at 0', async () => {
    for (const size of [0, ...TILE_EDGE_SIZES, LARGEST]) {
      expect(await treeHash(crypto, log.reader, size), `size ${size}`).to.deep.equal(rootAt.get(size));
    }
  });

  it('proves inclusion of any leaf in any tile-edge tree size', async () => {
    await fc.assert(
      fc.asyncProperty(
        sizeOnEdge.chain((size) => fc.tuple(fc.constant(size), fc.nat(size - 1))),
        async ([size, index]) => {
          const proof = await proveInclusion(crypto, log.reader, index, size);
          expect(verifyInclusion(crypto, index, size, leaves[index]!, proof, rootOf(size))).to.equal(true);
          // Nor for a neighbour, or the root of another tree. (The size alone is not bound by an
          // inclusion proof — leaf 0 has the same path in trees of 511 and 512 — the signed root is.)
          const otherSize = TILE_EDGE_SIZES[(TILE_EDGE_SIZES.indexOf(size) + 1) % TILE_EDGE_SIZES.length]!;
          expect(verifyInclusion(crypto, index ^ 1, size, leaves[index]!, proof, rootOf(size))).to.equal(
            false,
          );
          expect(verifyInclusion(crypto, index, size, leaves[index]!, proof, rootOf(otherSize))).to.equal(
            false,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('proves consistency between any two tile-edge sizes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(sizeOnEdge, { minLength: 2, maxLength: 2 }), async (sizes) => {
        const [oldSize, newSize] = sizes.sort((a, b) => a - b) as [number, number];
        const proof = await proveConsistency(crypto, log.reader, oldSize, newSize);
        expect(verifyConsistency(crypto, oldSize, newSize, proof, rootOf(oldSize), rootOf(newSize))).to.equal(
          true,
        );
        expect(verifyConsistency(crypto, oldSize, newSize, proof, rootOf(newSize), rootOf(oldSize))).to.equal(
          false,
        );
      }),
      { numRuns: 60 },
    );
  });

  it('proves inclusion and consistency at arbitrary small sizes too', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 1_100 })
          .chain((size) => fc.tuple(fc.constant(size), fc.nat(size - 1), fc.integer({ min: 1, max: size }))),
        async ([size, index, oldSize]) => {
          const root = rootOf(size);
          const inclusion = await proveInclusion(crypto, log.reader, index, size);
          expect(verifyInclusion(crypto, index, size, leaves[index]!, inclusion, root)).to.equal(true);
          const consistency =
            oldSize === size ? [] : await proveConsistency(crypto, log.reader, oldSize, size);
          expect(verifyConsistency(crypto, oldSize, size, consistency, rootOf(oldSize), root)).to.equal(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a proof with any single bit flipped', async () => {
    const proof = await proveInclusion(crypto, log.reader, 65_536, 65_537);
    const consistency = await proveConsistency(crypto, log.reader, 257, 65_537);
    await fc.assert(
      fc.property(fc.nat(proof.length * 256 - 1), fc.nat(consistency.length * 256 - 1), (bit, otherBit) => {
        const flipped = proof.map((hash, i) => (i === bit >> 8 ? flipBit(hash, bit & 0xff) : hash));
        expect(verifyInclusion(crypto, 65_536, 65_537, leaves[65_536]!, flipped, rootOf(65_537))).to.equal(
          false,
        );
        const flippedConsistency = consistency.map((hash, i) =>
          i === otherBit >> 8 ? flipBit(hash, otherBit & 0xff) : hash,
        );
        expect(
          verifyConsistency(crypto, 257, 65_537, flippedConsistency, rootOf(257), rootOf(65_537)),
        ).to.equal(false);
      }),
      { numRuns: 100 },
    );
  });
});

function flipBit(hash: Uint8Array, bit: number): Uint8Array {
  const copy = hash.slice();
  copy[bit >> 3] = copy[bit >> 3]! ^ (1 << (bit & 7));
  return copy;
}
