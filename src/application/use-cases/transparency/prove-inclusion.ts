// Rule (API.md §8): a c2sp.org/tlog-proof@v1 inclusion proof of an activity in the latest checkpoint, the checkpoint
// included verbatim, so that one file proves the activity to anyone holding the log's verifier key.
import { formatTlogProof, proveInclusion } from '@l2/tlog';
import type { TransparencyLog } from '../../services/transparency/transparency-log.js';

export class ProveInclusion {
  constructor(private readonly log: TransparencyLog) {}

  /** The proof's text, or null when the latest checkpoint does not cover activity `idx`. */
  async execute(idx: number): Promise<string | null> {
    const latest = await this.log.latest();
    if (latest === null || !Number.isSafeInteger(idx) || idx < 0 || idx >= latest.size) return null;
    const proof = await proveInclusion(this.log.crypto, this.log.reader, idx, latest.size);
    return formatTlogProof({ index: idx, inclusionProof: proof, checkpoint: latest.note });
  }
}
