import { expect } from 'chai';
import { nodeSha256 as crypto } from '@l2/tlog/node-crypto';
import { proveConsistency, proveInclusion, verifyConsistency, verifyInclusion } from '@l2/tlog';
import { MemoryTransparencyLog } from '../../../support/memory-transparency-log.js';
import { b64, consistencyVectors, hex, inclusionVectors, testTree } from './fixtures.js';

const noKey = { publicKey: new Uint8Array(32), sign: () => new Uint8Array(64) };
const proofOf = (proof: string[] | null) => (proof ?? []).map(b64);

describe('transparency: the proof vectors of transparency-dev/merkle', () => {
  const inclusion = inclusionVectors();
  const consistency = consistencyVectors();

  it('has them all (so a vector cannot go missing silently)', () => {
    expect(inclusion).to.have.length(82);
    expect(consistency).to.have.length(84);
    expect(inclusion.filter((v) => !v.wantErr)).to.have.length(5);
    expect(consistency.filter((v) => !v.wantErr)).to.have.length(5);
  });

  for (const v of inclusionVectors()) {
    it(`inclusion ${v.file}: ${v.wantErr ? 'refuses' : 'accepts'} (${v.desc})`, () => {
      const verified = verifyInclusion(
        crypto,
        v.leafIdx,
        v.treeSize,
        b64(v.leafHash),
        proofOf(v.proof),
        b64(v.root),
      );
      expect(verified).to.equal(!v.wantErr);
    });
  }

  for (const v of consistencyVectors()) {
    it(`consistency ${v.file}: ${v.wantErr ? 'refuses' : 'accepts'} (${v.desc})`, () => {
      const verified = verifyConsistency(
        crypto,
        v.size1,
        v.size2,
        proofOf(v.proof),
        b64(v.root1),
        b64(v.root2),
      );
      expect(verified).to.equal(!v.wantErr);
    });
  }

  it('builds, from kept hashes, the very proofs of the happy paths (over the RFC 6962 test tree)', async () => {
    const log = new MemoryTransparencyLog('example.com/log', noKey).append(...testTree.leafInputs.map(hex));
    for (const v of inclusion.filter((vector) => !vector.wantErr)) {
      const proof = await proveInclusion(crypto, log.reader, v.leafIdx, v.treeSize);
      expect(proof, v.file).to.deep.equal(proofOf(v.proof));
    }
    for (const v of consistency.filter((vector) => !vector.wantErr && vector.size1 < vector.size2)) {
      const proof = await proveConsistency(crypto, log.reader, v.size1, v.size2);
      expect(proof, v.file).to.deep.equal(proofOf(v.proof));
    }
  });
});
