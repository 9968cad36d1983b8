import type { StoredHashIndex, StoredHashReader } from './subtree-hashes.js';

/** Reads `count` consecutive kept hashes of one tile level from `first` (a store's range query, a tile). */
export type ReadHashRange = (
  level: number,
  first: number,
  count: number,
) => Promise<readonly Uint8Array[]> | readonly Uint8Array[];

/**
 * A StoredHashReader over range reads: the positions asked for are grouped into runs of consecutive hashes of
 * one level, each run read once (a proof or a tree hash asks for a few runs, however large the tree).
 */
export function rangeHashReader(read: ReadHashRange): StoredHashReader {
  return {
    async readHashes(indexes: readonly StoredHashIndex[]) {
      const order = indexes
        .map((at, position) => ({ ...at, position }))
        .sort((a, b) => a.level - b.level || a.index - b.index);
      const out: Uint8Array[] = new Array<Uint8Array>(indexes.length);
      const runs: { level: number; first: number; count: number; positions: number[][] }[] = [];
      for (const at of order) {
        const run = runs[runs.length - 1];
        if (run && run.level === at.level && at.index < run.first + run.count) {
          run.positions[at.index - run.first]!.push(at.position);
        } else if (run && run.level === at.level && at.index === run.first + run.count) {
          run.count += 1;
          run.positions.push([at.position]);
        } else {
          runs.push({ level: at.level, first: at.index, count: 1, positions: [[at.position]] });
        }
      }
      const read_ = await Promise.all(runs.map((run) => read(run.level, run.first, run.count)));
      runs.forEach((run, r) => {
        const hashes = read_[r]!;
        if (hashes.length !== run.count) {
          throw new Error(
            `level ${run.level}: ${hashes.length} hashes read from ${run.first}, ${run.count} asked`,
          );
        }
        run.positions.forEach((positions, i) => {
          for (const position of positions) out[position] = hashes[i]!;
        });
      });
      return out;
    },
  };
}
