import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Worker {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: AsyncIterator<string>;
  readonly stderr: string[];
}

function start(script: string, args: readonly string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: PROJECT_ROOT });
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  return { child, stderr, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function nextLine(worker: Worker): Promise<string> {
  const { value, done } = await worker.lines.next();
  if (done) {
    await exited(worker.child);
    throw new Error(`Worker ended early: ${worker.stderr.join('')}`);
  }
  return value;
}

/**
 * Starts the worker script (a path to a .ts file, run with tsx) once per argument list, waits until each has
 * printed "ready", releases them all at once with a line on stdin, and returns each one's JSON result line.
 * The protocol of `sqlite-store-worker.ts`, for any worker.
 */
export async function runWorkerProcesses<T>(
  script: string,
  argLists: readonly (readonly string[])[],
): Promise<T[]> {
  const workers = argLists.map((args) => start(script, args));
  try {
    for (const worker of workers) expectLine(await nextLine(worker), 'ready');
    for (const worker of workers) worker.child.stdin.end('go\n');
    const results = await Promise.all(workers.map(async (w) => JSON.parse(await nextLine(w)) as T));
    for (const worker of workers) {
      const [code] = (await exited(worker.child)) as [number | null];
      if (code !== 0) throw new Error(`Worker exited with ${code}: ${worker.stderr.join('')}`);
    }
    return results;
  } finally {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill();
  }
}

function expectLine(line: string, expected: string): void {
  if (line !== expected) throw new Error(`Expected "${expected}" from a worker, got "${line}"`);
}

function exited(child: ChildProcessWithoutNullStreams): Promise<unknown[]> {
  return child.exitCode === null ? once(child, 'exit') : Promise.resolve([child.exitCode]);
}
