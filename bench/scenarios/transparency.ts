// Scenario 11 (issue 27): what the transparency log costs and how fast it is read.
//  - asset writes with the log and without it (the same service, its store keeping no hashes and its writes waiting
//    for no checkpoint), alternating, each round on a fresh store;
//  - checkpoint, tile and entry bundle reads on the seeded store, against the bare hello baseline, and the tile's
//    and the bundle's bytes sent by a bare server under the same load (the machine's floor for them);
//  - `l2 tlog verify --full` over the seeded store's whole log: its time and its peak memory.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signIn } from '../http.js';
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';
import type { FatBundleResults } from './fat-bundles.js';
import { startBytesServer, startL2Variant, type L2Settings, type RunningServer } from '../servers.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const EXIT_USAGE = fileURLToPath(new URL('../exit-usage.mjs', import.meta.url));

export interface TransparencyWrites {
  /** Asset writes per second with the log, one per round. */
  readonly with: LoadResult[];
  /** The same without it. */
  readonly without: LoadResult[];
}

export interface TransparencyReads {
  readonly checkpoint: LoadResult;
  /** A full hash tile (tile/0/000, 8 KiB). */
  readonly tile: LoadResult;
  /** A full entry bundle (tile/entries/000), gzip-encoded. */
  readonly bundle: LoadResult;
  readonly bundleBytes: number;
  /**
   * The machine's floor for the same work: the tile's and the gzip-encoded bundle's bytes, with L2's headers,
   * answered by a bare node:http server (no routing, no store) under the same load.
   */
  readonly floor?: { readonly tile: LoadResult; readonly bundle: LoadResult };
}

export interface VerifyFullResult {
  readonly size: number;
  readonly seconds: number;
  /** The verifying process's peak resident set (getrusage maxrss). */
  readonly peakRssMiB: number;
  readonly output: string;
}

export interface TransparencyResults {
  writes?: TransparencyWrites;
  /** Reads of a log of fat activities (issue 33), on a store of its own. */
  fatBundles?: FatBundleResults;
  reads?: TransparencyReads;
  verifyFull?: VerifyFullResult;
  /** The seeded store's start-up check (every entry against its hashes and the checkpoint). */
  startupCheck?: { readonly size: number; readonly seconds: number };
}

/** Round after round, each variant on a fresh store: asset writes by one signed-in user, as fast as it can. */
export async function writesWithAndWithout(
  profile: Profile,
  settingsFor: (name: string) => Omit<L2Settings, 'storePath'>,
  dir: string,
  rounds: number,
  started: (server: RunningServer) => void,
): Promise<TransparencyWrites> {
  const results: TransparencyWrites = { with: [], without: [] };
  for (let round = 0; round < rounds; round++) {
    for (const variant of ['with', 'without'] as const) {
      const storeDir = join(dir, `writes-${variant}-${round}`);
      mkdirSync(storeDir, { recursive: true });
      const server = await startL2Variant(variant, {
        ...settingsFor(variant),
        storePath: join(storeDir, 'l2.sqlite'),
      });
      started(server);
      try {
        const { session } = await signIn(
          server.url,
          { username: 'writer', password: 'bench password 1' },
          true,
        );
        results[variant].push(
          await measure(
            {
              url: `${server.url}/assets`,
              method: 'POST',
              headers: { authorization: `Bearer ${session}`, accept: 'application/json' },
              connections: CONNECTIONS.writes,
              seconds: profile.throughputSeconds,
              uniqueAsset: true,
            },
            profile.warmUpSeconds,
          ),
        );
      } finally {
        await server.stop();
      }
    }
  }
  return results;
}

export async function logReads(base: string, profile: Profile): Promise<TransparencyReads> {
  const common = { connections: CONNECTIONS.throughput, seconds: profile.throughputSeconds };
  const checkpoint = await measure({ ...common, url: `${base}/tlog/checkpoint` }, profile.warmUpSeconds);
  const tile = await measure({ ...common, url: `${base}/tlog/tile/0/000` }, profile.warmUpSeconds);
  const gzip = { 'accept-encoding': 'gzip' };
  const bundle = await measure(
    { ...common, url: `${base}/tlog/tile/entries/000`, headers: gzip },
    profile.warmUpSeconds,
  );
  const served = await fetch(`${base}/tlog/tile/entries/000`);
  const bundleBytes = (await served.arrayBuffer()).byteLength;
  return { checkpoint, tile, bundle, bundleBytes, floor: await bytesFloor(base, profile) };
}

/** The tile and the bundle as L2 answers them, sent by a bare server under the same load: the reads' floor. */
async function bytesFloor(base: string, profile: Profile): Promise<NonNullable<TransparencyReads['floor']>> {
  const dir = mkdtempSync(join(tmpdir(), 'l2-bench-bytes-'));
  try {
    const gzip = { 'accept-encoding': 'gzip' };
    const answers = {
      '/tile': await savedAnswer(`${base}/tlog/tile/0/000`, {}, join(dir, 'tile')),
      '/bundle': await savedAnswer(`${base}/tlog/tile/entries/000`, gzip, join(dir, 'bundle')),
    };
    const floor = await startBytesServer(answers);
    try {
      const common = { connections: CONNECTIONS.throughput, seconds: profile.throughputSeconds };
      const tile = await measure({ ...common, url: `${floor.url}/tile` }, profile.warmUpSeconds);
      const bundle = await measure(
        { ...common, url: `${floor.url}/bundle`, headers: gzip },
        profile.warmUpSeconds,
      );
      return { tile, bundle };
    } finally {
      await floor.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** GET `url` as the load generator asks for it; its raw body (still encoded) into `file`, its headers returned. */
export function savedAnswer(
  url: string,
  headers: Record<string, string>,
  file: string,
): Promise<{ file: string; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        writeFileSync(file, Buffer.concat(chunks));
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers))
          if (typeof value === 'string' && !PER_CONNECTION.has(name)) kept[name] = value;
        resolve({ file, headers: kept });
      });
    }).on('error', reject);
  });
}

/** Headers of one connection or one moment, not of the answer. */
const PER_CONNECTION = new Set(['connection', 'keep-alive', 'date', 'content-length', 'transfer-encoding']);

/** `l2 tlog verify <url> --key <its key> --full` (the production build), timed, its peak memory read at exit. */
export async function verifyFull(base: string, publicUrl: string): Promise<VerifyFullResult> {
  const key = (await (await fetch(`${base}/tlog/key`)).text()).trim();
  const size = Number((await (await fetch(`${base}/tlog/checkpoint`)).text()).split('\n')[1]);
  const began = process.hrtime.bigint();
  // The log of PUBLIC_URL (its origin), read from where the bench's service listens.
  const child = spawn(
    process.execPath,
    [
      '--import',
      EXIT_USAGE,
      CLI,
      'tlog',
      'verify',
      publicUrl,
      '--key',
      key,
      '--full',
      '--from',
      `${base}/tlog/`,
    ],
    { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  const usage = /\{"maxRssKiB":(\d+)\}\s*$/.exec(stderr);
  if (code !== 0 || !usage) throw new Error(`l2 tlog verify --full exited with ${code}: ${stdout}${stderr}`);
  return { size, seconds, peakRssMiB: Number(usage[1]) / 1024, output: stdout.trim() };
}
