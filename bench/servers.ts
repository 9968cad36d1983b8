// Starts and stops the processes under measurement: the real service (production build), the bare Koa baseline and
// the peers of scenario 8.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchFile } from './child.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface Memory {
  /** Resident set size now, MiB. */
  readonly rssMiB: number;
  /** The highest resident set size since the process started (VmHWM), MiB. */
  readonly peakRssMiB: number;
}

export interface RunningServer {
  readonly url: string;
  readonly pid: number;
  /** L2's start-up check of its transparency log (every entry against its hashes), once it was done. */
  readonly tlogCheck?: { readonly size: number; readonly seconds: number };
  memory(): Memory;
  stop(): Promise<void>;
}

/** VmRSS and VmHWM from /proc/<pid>/status. */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024 };
}

/** Resolves with the port once a stdout line satisfies `portOf`; rejects if the process exits first. */
function waitForPort(
  child: ChildProcess,
  portOf: (line: string) => number | null,
  ms: number,
): Promise<number> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no port after ${ms / 1000} s: ${stderr}`)), ms);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const port = portOf(line);
      if (port !== null) {
        clearTimeout(timer);
        resolve(port);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening: ${stderr}`));
    });
  });
}

function running(child: ChildProcess, port: number): RunningServer {
  const pid = child.pid!;
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    memory: () => memoryOf(pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface L2Settings {
  readonly storePath: string;
  /** STORE as a URL (postgres://…), instead of the SQLite file at storePath. */
  readonly storeUrl?: string;
  readonly secretsDir: string;
  readonly publicUrl: string;
  readonly bcryptCost: number;
  /** The service to run: this checkout's `dist/main.js` unless another build's is named (the paired bench). */
  readonly main?: string;
}

/** L2's environment as the bench runs it: production, on 127.0.0.1 and a free port, limits out of the way. */
function l2Environment(settings: L2Settings): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: settings.publicUrl,
    STORE: settings.storeUrl ?? `sqlite:${settings.storePath}`,
    SECRETS_DIR: settings.secretsDir,
    BCRYPT_COST: String(settings.bcryptCost),
    // Attach records a loopback L1 server; no notice is ever sent (nothing is revoked over HTTP).
    L1_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'info',
    // Only failed logins count, and the storm's logins all succeed; raised so that nothing is limited anyway.
    LOGIN_MAX_FAILURES_PER_USERNAME: '1000000',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '1000000',
    // The registration scenario registers from one address, and the publishers write as fast as they can: the
    // bench measures the work, not the limits that keep one client from doing too much of it.
    REGISTRATIONS_PER_ADDRESS: '1000000',
    ASSET_WRITES_PER_USER: '1000000',
    PASSKEY_CHALLENGES_PER_ADDRESS: '1000000',
  };
}

/**
 * Resolves with the `transparency log checked` line: until then the service checks its log in the background
 * (reading every entry) and is not ready (/readyz 503), so nothing is measured before it.
 */
function tlogChecked(child: ChildProcess, ms: number): Promise<{ size: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no transparency log check after ${ms / 1000} s`)), ms);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; size?: number; seconds?: number };
        if (entry.msg !== 'transparency log checked') return;
        clearTimeout(timer);
        resolve({ size: entry.size ?? 0, seconds: entry.seconds ?? 0 });
      } catch {
        /* not a log line */
      }
    });
    child.once('exit', () => clearTimeout(timer));
  });
}

/**
 * `node dist/main.js` in production mode on 127.0.0.1 and a free port, as an operator would run it; resolves once
 * it listens and has checked its transparency log (it is ready).
 */
export async function startL2(settings: L2Settings): Promise<RunningServer> {
  // BENCH_L2_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the service under load.
  const nodeArgs = (process.env.BENCH_L2_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, settings.main ?? MAIN], {
    env: l2Environment(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const checked = tlogChecked(child, 600_000);
  const port = await waitForPort(
    child,
    (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        return entry.msg === 'L2 listening' && entry.port ? entry.port : null;
      } catch {
        return null;
      }
    },
    60_000,
  );
  return { ...running(child, port), tlogCheck: await checked };
}

/** A server started by the bench from one of its own scripts: the JSON line it printed once listening. */
export interface RunningScript extends RunningServer {
  readonly announced: Readonly<Record<string, unknown>>;
}

/**
 * `node --import tsx bench/<script>` in its own process: the script prints one JSON line holding its port (and
 * whatever else the bench needs from it) once it listens, and exits on SIGTERM.
 */
async function startScript(
  script: string,
  env: NodeJS.ProcessEnv = process.env,
  args: readonly string[] = [],
): Promise<RunningScript> {
  const child = spawn(process.execPath, ['--import', 'tsx', benchFile(script), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let announced: Record<string, unknown> = {};
  const port = await waitForPort(
    child,
    (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (typeof entry.port !== 'number' || entry.port === 0) return null;
        announced = entry;
        return entry.port;
      } catch {
        return null;
      }
    },
    30_000,
  );
  return { ...running(child, port), announced };
}

/**
 * Scenario 11's services (bench/l2-variant.ts): L2 with its transparency log, or without it (no hashes kept, no
 * checkpoint awaited), started the same way, in the same environment as startL2.
 */
export const startL2Variant = (variant: 'with' | 'without', settings: L2Settings): Promise<RunningScript> =>
  startScript('l2-variant.ts', l2Environment(settings), [variant]);

/** The bare Koa "hello" baseline in its own process. */
export const startHello = (): Promise<RunningServer> => startScript('hello-server.ts');

/** Scenario 11's floor (bench/bytes-server.ts): fixed bytes by path, from a bare node:http server. */
export const startBytesServer = (
  answers: Readonly<Record<string, { file: string; headers: Record<string, string> }>>,
): Promise<RunningScript> => startScript('bytes-server.ts', process.env, [JSON.stringify(answers)]);

/** A peer of scenario 8 (bench/peers/<name>.ts) in its own process, in production mode as L2 runs. */
export const startPeer = (name: string): Promise<RunningScript> =>
  startScript(`peers/${name}.ts`, { ...process.env, NODE_ENV: 'production' });

/** Scenario 11's floor of cold fat-bundle reads (bench/bundle-floor-server.ts): bundles built afresh, bare. */
export const startBundleFloorServer = (storePath: string): Promise<RunningScript> =>
  startScript('bundle-floor-server.ts', process.env, [storePath]);
