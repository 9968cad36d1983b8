// Scenario 15 (issue 37): domain blocks. (1) A peer whose domain the operator blocked floods the inbox with validly
// signed Follows: L2 must refuse them (403) before fetching or verifying anything, so a blocked domain costs it less
// than a bad signature (scenario 9, measured just before on the same service): refusals/s ≥ scenario 9's answers/s.
// (2) The block itself on a store holding 5,000 followers of the domain, each with a pending delivery: the store's
// one write (rule, followers removed, deliveries dropped) within a second, on SQLite and on PostgreSQL.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { withDatabase } from '../../src/adapters/persistence/postgres/postgres-scratch-databases.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { DEFAULT_STORE_SETTINGS } from '../../src/adapters/persistence/store-driver.js';
import { signedHeaders } from '../../src/adapters/outbound/http-signing.js';
import { parseRuleHost, type RuleHost } from '../../src/domain/domain-rules.js';
import { PostgresNode, postgresBinaries } from '../../test/support/postgres-cluster.js';
import type { BlockWriteOptions, BlockWriteReport } from '../block-domain-store.js';
import { runJsonChild } from '../child.js';
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';
import { post, startPeer } from './bad-signatures.js';

/**
 * The blocked peer's address: rules ignore ports, and scenario 9's peer and L2 itself listen on 127.0.0.1, so the
 * blocked server is another loopback address (PUBLIC_URL's host is l2.bench.localhost: never this one).
 */
export const BLOCKED_PEER_HOST = '127.0.0.2';
/** Part 2's domain: its followers are on f<n>.blocked.example. */
export const BLOCKED_DOMAIN = 'blocked.example';
/** Part 2's followers of the blocked domain (and as many kept elsewhere), the issue's figure. */
export const BLOCKED_FOLLOWERS = 5000;
/** The targets (docs/performance.md): refusals at least as fast as bad signatures; the block's write within 1 s. */
export const FLOOD_RATIO_TARGET = 1;
export const BLOCK_SECONDS_TARGET = 1;

export interface BlockedFloodResults {
  readonly load: LoadResult;
  /** 403s per second (`load.rps` counts them; any other answer is a warning). */
  readonly refusedPerSecond: number;
  /** GETs of the blocked peer's actor during the scenario (the probe and the flood): 0 when nothing was fetched. */
  readonly actorFetches: number;
}

export interface BlockWriteResults {
  readonly sqlite?: BlockWriteReport;
  readonly postgres?: BlockWriteReport & { readonly version: string };
  /** Why the PostgreSQL line did not run (no binaries), or undefined. */
  readonly postgresSkipped?: string;
}

export interface BlockedDomainResults {
  flood?: BlockedFloodResults;
  write?: BlockWriteResults;
}

/**
 * Part 1 on a running service whose SQLite store is `storePath`: the block is written into that store (as `l2
 * domains block` writes it, through the store's adapter; the inbox reads the rules at every request), the flood is
 * measured, then the block is lifted so that the rest of the run meets the service as before.
 */
export async function blockedDomainFlood(
  base: string,
  storePath: string,
  publicUrl: string,
  followed: string,
  profile: Profile,
): Promise<BlockedFloodResults> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const peer = await startPeer(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    BLOCKED_PEER_HOST,
  );
  const rule = ruleHost(BLOCKED_PEER_HOST, publicUrl);
  const store = openSqlitePersistence(storePath);
  try {
    await store.domainRules.block(rule, new Date());
    const body = JSON.stringify({
      id: `${peer.actor}#follows/1`,
      type: 'Follow',
      actor: peer.actor,
      object: `${publicUrl}/users/${followed}`,
    });
    const headers = await signedHeaders({
      method: 'POST',
      url: `${publicUrl}/inbox`,
      headers: { 'content-type': 'application/activity+json' },
      body,
      key: { keyId: `${peer.actor}#main-key`, privateKey },
      now: new Date(),
    });
    const status = await post(`${base}/inbox`, headers, body);
    if (status !== 403) throw new Error(`the blocked domain's Follow was answered ${status}, not 403`);
    const load = await measure(
      {
        url: `${base}/inbox`,
        method: 'POST',
        headers,
        body,
        expectedStatus: 403,
        connections: CONNECTIONS.throughput,
        seconds: profile.throughputSeconds,
      },
      profile.warmUpSeconds,
    );
    return { load, refusedPerSecond: load.rps, actorFetches: peer.actorFetches() };
  } finally {
    await store.domainRules.unblock(rule).catch(() => undefined);
    await store.close();
    await new Promise((resolve) => peer.server.close(resolve));
  }
}

/** Part 2: the block's write on a fresh SQLite store of its own, then on a throwaway PostgreSQL cluster. */
export async function blockWrites(
  dir: string,
  publicUrl: string,
  step: (message: string) => void,
): Promise<BlockWriteResults> {
  const path = join(dir, 'domain-block', 'l2.sqlite');
  mkdirSync(join(dir, 'domain-block'), { recursive: true });
  const sqlite = await blockWrite({ sqlitePath: path }, publicUrl);
  step(`domain block on SQLite: ${describe(sqlite)}`);
  if (postgresBinaries() === null) {
    const postgresSkipped = 'no PostgreSQL binaries found (apt-get install postgresql, or set PG_BIN)';
    step(`SKIPPED domain block on PostgreSQL: ${postgresSkipped}`);
    return { sqlite, postgresSkipped };
  }
  const node = await PostgresNode.primary();
  try {
    const admin = openPostgresPersistence(node.url(), { ...DEFAULT_STORE_SETTINGS, poolSize: 1 }).database;
    let version = '?';
    try {
      await admin.query(
        "CREATE DATABASE l2_domains ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0",
      );
      const [row] = await admin.query<{ server_version: string }>('SHOW server_version');
      version = row?.server_version ?? '?';
    } finally {
      await admin.close();
    }
    const postgres = await blockWrite({ url: withDatabase(node.url(), 'l2_domains') }, publicUrl);
    step(`domain block on PostgreSQL ${version}: ${describe(postgres)}`);
    return { sqlite, postgres: { ...postgres, version } };
  } finally {
    await node.destroy();
  }
}

function blockWrite(store: BlockWriteOptions['store'], publicUrl: string): Promise<BlockWriteReport> {
  const options: BlockWriteOptions = {
    store,
    followers: BLOCKED_FOLLOWERS,
    users: 10,
    domain: BLOCKED_DOMAIN,
    kept: BLOCKED_FOLLOWERS,
    ownHost: new URL(publicUrl).hostname,
  };
  return runJsonChild<BlockWriteReport>('block-domain-store.ts', options, 10 * 60_000);
}

const describe = (r: BlockWriteReport) =>
  `${(r.seconds * 1000).toFixed(0)} ms, ${r.followersRemoved} followers removed, ${r.jobsDropped} deliveries ` +
  `dropped; left ${r.followersLeft} of ${r.followersBefore} followers, ${r.pendingLeft} of ${r.pendingBefore} jobs`;

function ruleHost(host: string, publicUrl: string): RuleHost {
  const parsed = parseRuleHost(host, new URL(publicUrl).hostname);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}
