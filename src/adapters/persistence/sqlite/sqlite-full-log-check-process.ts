// The child process of sqlite-full-log-check.ts: checks the whole transparency log of one SQLite file (every
// entry, leaf hash and tile hash, as the service's start-up check does), answers the tree it reached, and exits —
// taking with it the memory the reads leave behind. Started with an IPC channel ('advanced' serialization); sent
// one FullLogCheckRequest, it answers one FullLogCheckAnswer.
import { LogInconsistency, VerifiedTree } from '../../../application/services/transparency/verified-tree.js';
import { storeSha256 } from '../transparency-hashes.js';
import type { FullLogCheckAnswer, FullLogCheckRequest } from './sqlite-full-log-check.js';
import { openTransparencyLogReader } from './sqlite-transparency-log-reader.js';

const send = (answer: FullLogCheckAnswer) =>
  new Promise<void>((resolve) => process.send!(answer, undefined, undefined, () => resolve()));

async function check({ path, size, marks }: FullLogCheckRequest): Promise<FullLogCheckAnswer> {
  try {
    const reader = openTransparencyLogReader(path);
    try {
      // Yields between batches, so that the parent's going away (the IPC channel closing) is heard.
      const tree = new VerifiedTree(
        reader.store,
        storeSha256,
        () => new Promise((resolve) => setImmediate(resolve)),
      );
      await tree.extendTo(size, marks);
      const { edge, roots } = tree.checked();
      return { kind: 'checked', edge, roots };
    } finally {
      reader.close();
    }
  } catch (error) {
    if (error instanceof LogInconsistency) return { kind: 'inconsistent', message: error.message };
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

// Nobody left to answer: stop at once.
process.once('disconnect', () => process.exit(1));
process.once('message', (request: FullLogCheckRequest) => {
  void check(request)
    .then(send)
    .then(() => process.exit(0));
});
