import { expect } from 'chai';
import { nodeSha256 as crypto } from '@l2/tlog/node-crypto';
import {
  appendToRightEdge,
  decodeRightEdge,
  EMPTY_RIGHT_EDGE,
  emptyTreeHash,
  encodeRightEdge,
  hexOf,
  leafHash,
  nodeHash,
  rightEdgeAt,
  rootOfRightEdge,
  treeHash,
  type RightEdge,
  type TileLevelHash,
} from '@l2/tlog';
import { MemoryTransparencyLog } from '../../../support/memory-transparency-log.js';
import { hex, testTree } from './fixtures.js';

const noKey = { publicKey: new Uint8Array(32), sign: () => new Uint8Array(64) };

describe('transparency: Merkle hashes and the right-edge append', () => {
  it('gives the empty tree the hash of RFC 6962 (SHA-256 of nothing)', () => {
    expect(hexOf(emptyTreeHash(crypto))).to.equal(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(hexOf(rootOfRightEdge(crypto, EMPTY_RIGHT_EDGE))).to.equal(testTree.rootHashes[0]);
  });

  it('hashes leaves with 0x00 and nodes with 0x01 (the leaf of an empty entry, the first node of the test tree)', () => {
    const leaves = testTree.leafInputs.map((input) => leafHash(crypto, hex(input)));
    expect(hexOf(leaves[0]!)).to.equal(testTree.rootHashes[1]);
    expect(hexOf(nodeHash(crypto, leaves[0]!, leaves[1]!))).to.equal(testTree.rootHashes[2]);
  });

  it('reaches the root and the compact tree of transparency-dev/merkle at every size of its test tree', () => {
    let edge: RightEdge = EMPTY_RIGHT_EDGE;
    testTree.leafInputs.forEach((input, i) => {
      edge = appendToRightEdge(crypto, edge, leafHash(crypto, hex(input))).edge;
      expect(edge.size).to.equal(i + 1);
      expect(hexOf(rootOfRightEdge(crypto, edge)), `root at size ${i + 1}`).to.equal(
        testTree.rootHashes[i + 1],
      );
      expect(edge.hashes.map(hexOf), `edge at size ${i + 1}`).to.deep.equal(testTree.compactTrees[i + 1]);
    });
  });

  it('reports each leaf hash, and a tile-level hash exactly when a 256-wide tile fills', () => {
    const completedAt = new Map<number, TileLevelHash[]>();
    let edge: RightEdge = EMPTY_RIGHT_EDGE;
    let leavesReported = 0;
    for (let i = 0; i < 65_536; i++) {
      const leaf = leafHash(crypto, new Uint8Array([i & 0xff, i >> 8]));
      const result = appendToRightEdge(crypto, edge, leaf);
      edge = result.edge;
      const [first, ...tiles] = result.completed;
      if (first?.level === 0 && first.index === i && first.hash === leaf) leavesReported += 1;
      if (tiles.length > 0) completedAt.set(i + 1, tiles);
    }
    expect(leavesReported).to.equal(65_536);
    expect([...completedAt.keys()]).to.have.length(256);
    expect(completedAt.get(256)!.map(({ level, index }) => ({ level, index }))).to.deep.equal([
      { level: 1, index: 0 },
    ]);
    expect(completedAt.get(65_536)!.map(({ level, index }) => ({ level, index }))).to.deep.equal([
      { level: 1, index: 255 },
      { level: 2, index: 0 },
    ]);
    // The level-2 hash is the root of the whole 65,536-leaf tree, a perfect one.
    expect(completedAt.get(65_536)![1]!.hash).to.deep.equal(rootOfRightEdge(crypto, edge));
  });

  it('stores the edge as its hashes back to back, and refuses bytes that cannot be the edge of that size', () => {
    let edge: RightEdge = EMPTY_RIGHT_EDGE;
    for (let i = 0; i < 7; i++)
      edge = appendToRightEdge(crypto, edge, leafHash(crypto, new Uint8Array([i]))).edge;
    const bytes = encodeRightEdge(edge);
    expect(bytes).to.have.length(3 * 32);
    expect(decodeRightEdge(7, bytes)).to.deep.equal(edge);
    expect(decodeRightEdge(8, bytes)).to.equal(null);
    expect(decodeRightEdge(7, bytes.slice(1))).to.equal(null);
  });

  it('rebuilds the edge and the root of any earlier size from the kept hashes alone', async () => {
    const log = new MemoryTransparencyLog('example.com/log', noKey);
    const edges: RightEdge[] = [EMPTY_RIGHT_EDGE];
    let edge: RightEdge = EMPTY_RIGHT_EDGE;
    for (let i = 0; i < 700; i++) {
      const entry = new Uint8Array([i & 0xff, i >> 8, 7]);
      log.append(entry);
      edge = appendToRightEdge(crypto, edge, leafHash(crypto, entry)).edge;
      edges.push(edge);
    }
    for (const size of [0, 1, 2, 255, 256, 257, 511, 512, 513, 699, 700]) {
      expect(await rightEdgeAt(crypto, log.reader, size), `edge at ${size}`).to.deep.equal(edges[size]);
      expect(await treeHash(crypto, log.reader, size), `root at ${size}`).to.deep.equal(
        rootOfRightEdge(crypto, edges[size]!),
      );
    }
  });
});
