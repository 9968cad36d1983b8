import { fork } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckedTree, FullLogCheck } from '../../../application/ports/full-log-check.js';
import { LogInconsistency } from '../../../application/services/transparency/verified-tree.js';

/**
 * Below this many entries the start-up check reads in the service's own process: starting a Node process costs a
 * few tenths of a second, and a small log leaves little memory behind.
 */
const MIN_SIZE = 10_000;

export interface FullLogCheckRequest {
  readonly path: string;
  readonly size: number;
  readonly marks: readonly number[];
}

export type FullLogCheckAnswer =
  | ({ readonly kind: 'checked' } & CheckedTree)
  | { readonly kind: 'inconsistent'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string };

/** The child's module beside this one: .js in the build, .ts from the sources (then through tsx, as its parent). */
const here = fileURLToPath(import.meta.url);
const CHILD = fileURLToPath(new URL(`./sqlite-full-log-check-process${extname(here)}`, import.meta.url));
const CHILD_EXEC_ARGV = extname(here) === '.ts' ? ['--import', 'tsx'] : [];

/**
 * The start-up check of the SQLite file at `path`, run in a child process with its own read-only connection
 * (measured on 250,000 activities, idle RSS: 118–123 MiB after checking in the service's own process — SQLite's
 * 16 MiB page cache full, freed row buffers glibc keeps — 95–101 MiB after checking in a child, 95–100 MiB with
 * the check skipped).
 */
export function childProcessFullLogCheck(path: string): FullLogCheck {
  return {
    minSize: MIN_SIZE,
    async check(size, marks) {
      let exit: number | string | null = null;
      const child = fork(CHILD, [], {
        execArgv: CHILD_EXEC_ARGV,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      // 'close', not 'exit': it comes once the IPC channel is drained too, so the answer is never missed.
      const answer = await new Promise<FullLogCheckAnswer | null>((resolve, reject) => {
        let answer: FullLogCheckAnswer | null = null;
        child.once('message', (message: FullLogCheckAnswer) => (answer = message));
        child.once('error', reject);
        child.once('close', (code, signal) => {
          exit = signal ?? code;
          resolve(answer);
        });
        child.send({ path, size, marks } satisfies FullLogCheckRequest);
      });
      if (answer?.kind === 'checked') return { edge: answer.edge, roots: answer.roots };
      if (answer?.kind === 'inconsistent') throw new LogInconsistency(answer.message);
      throw new Error(
        `the transparency log check process failed: ${answer?.message ?? `it exited with ${exit} before answering`}`,
      );
    },
  };
}
