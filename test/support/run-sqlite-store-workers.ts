import { fileURLToPath } from 'node:url';
import { runWorkerProcesses } from './run-worker-processes.js';

const WORKER = fileURLToPath(new URL('./sqlite-store-worker.ts', import.meta.url));

/** Runs `sqlite-store-worker.ts` once per argument list, all released at once; returns each one's JSON result. */
export function runSqliteStoreWorkers<T>(argLists: readonly (readonly string[])[]): Promise<T[]> {
  return runWorkerProcesses<T>(WORKER, argLists);
}
