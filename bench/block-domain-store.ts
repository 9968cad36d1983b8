// The blocked-domain scenario's store write (issue 37): a store holding followers on many subdomains of one domain,
// each with a pending delivery to its server, beside as many followers and deliveries elsewhere; then the store's
// `block` of that domain, timed, and what is left counted — through the store's own reads, not the block's word.
// Usage: node --import tsx bench/block-domain-store.ts '<BlockWriteOptions as JSON>'; prints one BlockWriteReport.
import { NO_MOVE } from '../src/domain/account-move.js';
import { openPostgresPersistence } from '../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { openSqlitePersistence } from '../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { DEFAULT_STORE_SETTINGS } from '../src/adapters/persistence/store-driver.js';
import type { Persistence } from '../src/application/ports/persistence.js';
import { parseRuleHost } from '../src/domain/domain-rules.js';
import { activityDeliveryJob } from '../src/domain/jobs.js';
import { EMPTY_PROFILE } from '../src/domain/profile.js';
import type { Username } from '../src/domain/user.js';

export interface BlockWriteOptions {
  /** A SQLite file (created), or a PostgreSQL database URL (an empty database: migrated first). */
  readonly store: { readonly sqlitePath: string } | { readonly url: string };
  /** The blocked domain's followers: actor n on `f<n>.<domain>`, each with one pending delivery to its server. */
  readonly followers: number;
  /** Local users the followers are spread over, round-robin. */
  readonly users: number;
  /** The domain blocked, e.g. blocked.example. */
  readonly domain: string;
  /** Followers (and deliveries) on `k<n>.kept.example`, which the block must leave alone. */
  readonly kept: number;
  /** PUBLIC_URL's host (a rule may not name it). */
  readonly ownHost: string;
}

export interface BlockWriteReport {
  /** The store's `block` call alone: the rule, the followers' removal and the deliveries' drop, in its one write. */
  readonly seconds: number;
  /** Seeding the followers and deliveries, for the record. */
  readonly seedSeconds: number;
  /** What the block said it did. */
  readonly followersRemoved: number;
  readonly jobsDropped: number;
  /** Read back after the block: followers of the users (the kept ones only, if all went well) and pending jobs. */
  readonly followersLeft: number;
  readonly pendingLeft: number;
  /** What was there before the block (blocked and kept together). */
  readonly followersBefore: number;
  readonly pendingBefore: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as BlockWriteOptions;
const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

const sqlite = 'sqlitePath' in options.store ? openSqlitePersistence(options.store.sqlitePath) : null;
const store: Persistence =
  sqlite ??
  openPostgresPersistence((options.store as { url: string }).url, { ...DEFAULT_STORE_SETTINGS, poolSize: 2 });

const usernames = Array.from({ length: options.users }, (_, n) => `block_bench_${n}` as Username);

async function seedUsers(): Promise<void> {
  const createdAt = new Date();
  for (const username of usernames) {
    // The store keeps the credentials it is given; nothing here signs or logs in, so placeholders do.
    const outcome = await store.users.create({
      username,
      passwordHash: 'placeholder',
      publicKeyPem: 'placeholder',
      privateKeyPem: 'placeholder',
      createdAt,
      deletedAt: null,
      disabledAt: null,
      profile: EMPTY_PROFILE,
      profileVersion: 0,
      move: NO_MOVE,
    });
    if (outcome !== 'created') throw new Error(`user ${username}: ${outcome}`);
  }
}

/** Follower n of `host`'s kind, written as the inbox writes one, with one delivery to its server's shared inbox. */
async function seedFollower(n: number, host: string, now: Date): Promise<void> {
  const actor = `https://${host}/users/a${n}`;
  const sharedInbox = `https://${host}/inbox`;
  const outcome = await store.followers.add(
    {
      username: usernames[n % usernames.length]!,
      actor,
      inbox: `${actor}/inbox`,
      sharedInbox,
      followId: `${actor}#follows/1`,
      followedAt: now,
    },
    activityDeliveryJob(n, sharedInbox),
    now,
  );
  if (outcome !== 'added') throw new Error(`follower ${actor}: ${outcome}`);
}

/** Followers of every user, and pending jobs, as the store counts them. */
async function counts(): Promise<{ followers: number; pending: number }> {
  let followers = 0;
  for (const username of usernames) followers += await store.followers.count({ username });
  return { followers, pending: (await store.queueAdministration.stats()).pending };
}

try {
  await store.ready();
  const seeding = process.hrtime.bigint();
  await seedUsers();
  const now = new Date();
  // Five writes at a time: the PostgreSQL pool is small, and SQLite writes one at a time anyway.
  const hosts = [
    ...Array.from({ length: options.followers }, (_, n) => [n, `f${n}.${options.domain}`] as const),
    ...Array.from({ length: options.kept }, (_, n) => [n, `k${n}.kept.example`] as const),
  ];
  // On SQLite, one enclosing transaction (the adds nest as savepoints), as bench/seed.ts batches its writes.
  sqlite?.db.exec('BEGIN IMMEDIATE');
  for (let i = 0; i < hosts.length; i += 5)
    await Promise.all(hosts.slice(i, i + 5).map(([n, host]) => seedFollower(n, host, now)));
  sqlite?.db.exec('COMMIT');
  const seedSeconds = seconds(seeding);
  const before = await counts();

  const rule = parseRuleHost(options.domain, options.ownHost);
  if (!rule.ok) throw new Error(rule.error);
  const started = process.hrtime.bigint();
  const outcome = await store.domainRules.block(rule.value, new Date());
  const blockSeconds = seconds(started);
  const after = await counts();
  const report: BlockWriteReport = {
    seconds: blockSeconds,
    seedSeconds,
    followersRemoved: outcome.followersRemoved,
    jobsDropped: outcome.jobsDropped,
    followersLeft: after.followers,
    pendingLeft: after.pending,
    followersBefore: before.followers,
    pendingBefore: before.pending,
  };
  console.log(JSON.stringify(report));
} finally {
  await store.close();
}
