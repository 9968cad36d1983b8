// Scenario 11, fat entry bundles (issue 33): a log of the fattest activities a user can write (~35 KB each, so a
// bundle of 256 is ~9 MiB), served by L2 on a store of its own.
//  - cold reads: one client asking for every full bundle once, gzip, none read before (so each read builds its
//    bundle), against a bare server that builds each bundle afresh the plainest way (the floor);
//  - warm reads: one bundle asked for again and again, against the same bytes from a bare server;
//  - /healthz while four clients read the bundles in turn without gzip — more plain bundles than L2 keeps, so most
//    reads need a build — closing each connection once the headers are in (the audit's load), against /healthz on
//    the idle service.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BundleReadResult, BundleReadSpec } from '../bundle-read-types.js';
import { runJsonChild } from '../child.js';
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import type { Profile } from '../profile.js';
import { startBundleFloorServer, startBytesServer } from '../servers.js';
import { savedAnswer } from './transparency.js';

export interface FatBundleResults {
  /** Full fat bundles in the store, each read once by the cold lines. */
  readonly bundles: number;
  readonly meanEntryBytes: number;
  /** entries/000 plain and gzip-encoded, in bytes. */
  readonly bundleBytes: number;
  readonly gzipBytes: number;
  /** L2: every full bundle once, gzip, one client. */
  readonly cold: BundleReadResult;
  /** A bare server building each bundle afresh, read the same way. */
  readonly coldFloor: BundleReadResult;
  /** L2: entries/000, gzip, `WARM_CONNECTIONS` clients. */
  readonly warm: BundleReadResult;
  /** The same bytes and headers from a bare node:http server, read the same way. */
  readonly warmFloor: BundleReadResult;
  /** /healthz, one client, the service idle. */
  readonly healthzIdle: LoadResult;
  /** /healthz, one client, while `attack` ran. */
  readonly healthzLoaded: LoadResult;
  /** Four clients reading the bundles in turn, plain, each closing its connection once the headers are in. */
  readonly attack: BundleReadResult;
}

/**
 * Clients of the warm lines: a handful, each reading answers of several MiB (autocannon reads a body of megabytes
 * so slowly that it measures itself, so bench/bundle-reader.ts reads them, as it does the cold lines).
 */
export const WARM_CONNECTIONS = 4;
/** The audit's load: four anonymous connections that close after the headers. */
export const ATTACK_CONNECTIONS = 4;
/**
 * Full fat bundles seeded (each ~9 MiB plain, ~4 MiB gzip): L2's 32 MiB keeps three plain, so four clients reading
 * these in turn find few kept. The cold lines read each once: their samples.
 */
export const FAT_BUNDLES = { quick: 6, full: 10 } as const;

const GZIP = { 'accept-encoding': 'gzip' };
const readBundles = (spec: BundleReadSpec) =>
  runJsonChild<BundleReadResult>('bundle-reader.ts', spec, (spec.seconds + 120) * 1000);
/** Each path once, one client, gzip: with none of them read before, a pass of cold reads. */
const onePass = (base: string, paths: readonly string[]): BundleReadSpec => ({
  base,
  paths,
  connections: 1,
  seconds: 600,
  gzip: true,
  once: true,
});

/** The reads of scenario 11 on the fat store `storePath`, served by L2 at `base`. */
export async function fatBundleReads(
  base: string,
  storePath: string,
  bundles: number,
  meanEntryBytes: number,
  profile: Profile,
): Promise<FatBundleResults> {
  const paths = Array.from({ length: bundles }, (_, n) => `/tlog/tile/entries/${String(n).padStart(3, '0')}`);
  const latency = { connections: 1, seconds: profile.latencySeconds };
  const healthzIdle = await measure({ ...latency, url: `${base}/healthz` }, profile.warmUpSeconds);

  const cold = await readBundles(onePass(base, paths));
  const coldFloor = await floorReads(storePath, bundles);

  const attacking = readBundles({
    base,
    paths,
    connections: ATTACK_CONNECTIONS,
    seconds: profile.latencySeconds + 2,
    gzip: false,
    closeAfterHeaders: true,
  });
  await sleep(1000);
  const healthzLoaded = await measure({ ...latency, url: `${base}/healthz` }, 0, 0);
  const attack = await attacking;

  const { warm, warmFloor, bundleBytes, gzipBytes } = await warmReads(base, paths[0]!, profile);
  return {
    bundles,
    meanEntryBytes,
    bundleBytes,
    gzipBytes,
    cold,
    coldFloor,
    warm,
    warmFloor,
    healthzIdle,
    healthzLoaded,
    attack,
  };
}

/** A bare server building each bundle afresh (bench/bundle-floor-server.ts), read as the cold line reads L2. */
async function floorReads(storePath: string, bundles: number): Promise<BundleReadResult> {
  const floor = await startBundleFloorServer(storePath);
  try {
    return await readBundles(
      onePass(
        floor.url,
        Array.from({ length: bundles }, (_, n) => `/${n}`),
      ),
    );
  } finally {
    await floor.stop();
  }
}

/** One bundle read again and again from L2 (kept after the first read), then its bytes from a bare server. */
async function warmReads(base: string, path: string, profile: Profile) {
  const plain = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } });
  const bundleBytes = (await plain.arrayBuffer()).byteLength;
  const spec = { connections: WARM_CONNECTIONS, seconds: profile.throughputSeconds, gzip: true };
  const readTwice = async (at: string, what: string) => {
    await readBundles({ ...spec, base: at, paths: [what], seconds: profile.warmUpSeconds });
    return readBundles({ ...spec, base: at, paths: [what] });
  };
  const warm = await readTwice(base, path);
  const dir = mkdtempSync(join(tmpdir(), 'l2-bench-fat-'));
  try {
    const saved = await savedAnswer(`${base}${path}`, GZIP, join(dir, 'bundle'));
    const bytesServer = await startBytesServer({ '/bundle': saved });
    try {
      const warmFloor = await readTwice(bytesServer.url, '/bundle');
      return { warm, warmFloor, bundleBytes, gzipBytes: readFileSync(saved.file).byteLength };
    } finally {
      await bytesServer.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
