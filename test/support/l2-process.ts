import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface L2Process {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves with the first JSON log line (from the start) that `matches`; rejects if the process exits first. */
  logged(matches: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Everything the process wrote to standard output and error so far, from its start. */
  output(): string;
  /** Graceful stop (SIGTERM): in-flight deliveries finish, the store is closed. */
  stop(): Promise<number | null>;
}

/** Starts `src/main.ts` as its own OS process, exactly as `npm start` would run it, and waits until it listens. */
export async function startL2Process(env: Record<string, string>): Promise<L2Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      L1_ALLOW_PRIVATE: 'true',
      REGISTRATIONS_PER_ADDRESS: '100000',
      ASSET_WRITES_PER_USER: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const entries: Record<string, unknown>[] = [];
  const waiting: {
    matches: (e: Record<string, unknown>) => boolean;
    resolve: (e: Record<string, unknown>) => void;
  }[] = [];
  lines.on('line', (line) => {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    entries.push(entry);
    for (const waiter of waiting.filter((w) => w.matches(entry))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(entry);
    }
  });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'L2 listening' && entry.port) resolve(entry.port);
      } catch {
        /* not a log line */
      }
    });
    child.once('exit', (code) => reject(new Error(`L2 exited with ${code} before listening: ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    logged(matches) {
      const found = entries.find(matches);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiting.push({ matches, resolve });
        child.once('exit', () => reject(new Error('the process exited before logging it')));
      });
    },
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
