// Issue 37 (API.md §4.3, ADR 21): what a domain block costs in its one store write. A domain with 5,000 followers
// (one per subdomain `f<i>.blocked.example`, each with its Accept queued) and 5,000 more deliveries queued to them
// is blocked; the write must remove them all and drop every queued delivery well within a second, however many
// other followers and jobs the store holds (the removals are index ranges and a scan of the distinct pending lanes).
// Usage: node --import tsx bench/scenarios/blocked-domain.ts '{"store":"sqlite:/tmp/x.sqlite" | "postgres://…"}'
// (an empty store: it is migrated first); prints one DomainBlockTiming as JSON.
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { DEFAULT_STORE_SETTINGS } from '../../src/adapters/persistence/store-driver.js';
import type { Persistence } from '../../src/application/ports/persistence.js';
import { parseRuleHost } from '../../src/domain/domain-rules.js';
import { acceptJob, activityDeliveryJob } from '../../src/domain/jobs.js';
import type { Username } from '../../src/domain/user.js';

export interface DomainBlockTiming {
  readonly followers: number;
  readonly jobs: number;
  /** Followers and jobs of other domains, which the block must leave alone. */
  readonly others: number;
  /** The block's one write, from the call to its answer. */
  readonly blockMs: number;
  readonly followersRemoved: number;
  readonly jobsDropped: number;
}

const FOLLOWERS = 5000;
const OTHERS = 5000;
const AT_ONCE = 16;

/** Follows of alice by `count` actors on the hosts `host(i)`, each with its Accept queued, `AT_ONCE` at a time. */
async function follow(store: Persistence, count: number, host: (i: number) => string): Promise<void> {
  const alice = 'alice' as Username;
  for (let from = 0; from < count; from += AT_ONCE) {
    await Promise.all(
      Array.from({ length: Math.min(AT_ONCE, count - from) }, (_, k) => {
        const actor = `https://${host(from + k)}/users/u`;
        const follower = {
          username: alice,
          actor,
          inbox: `${actor}/inbox`,
          sharedInbox: null,
          followId: `${actor}/follows/1`,
          followedAt: new Date(),
        };
        const accept = acceptJob(
          { signer: alice, inbox: follower.inbox, document: { type: 'Accept' } },
          actor,
        );
        return store.followers.add(follower, accept, new Date());
      }),
    );
  }
}

export async function timeDomainBlock(store: Persistence): Promise<DomainBlockTiming> {
  await follow(store, FOLLOWERS, (i) => `f${i}.blocked.example`);
  await follow(store, OTHERS, (i) => `f${i}.other.example`);
  await store.jobs.enqueue(
    Array.from({ length: FOLLOWERS }, (_, i) =>
      activityDeliveryJob(1, `https://f${i}.blocked.example/inbox`),
    ),
    new Date(),
  );
  const host = parseRuleHost('blocked.example', 'l2.invalid');
  if (!host.ok) throw new Error(host.error);
  const started = process.hrtime.bigint();
  const outcome = await store.domainRules.block(host.value, new Date());
  const blockMs = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    followers: FOLLOWERS,
    jobs: 2 * FOLLOWERS,
    others: OTHERS,
    blockMs,
    followersRemoved: outcome.followersRemoved,
    jobsDropped: outcome.jobsDropped,
  };
}

async function main(): Promise<void> {
  const { store: url } = JSON.parse(process.argv[2] ?? '{}') as { store?: string };
  if (!url) throw new Error('usage: blocked-domain.ts \'{"store":"sqlite:PATH" | "postgres://…"}\'');
  const store = url.startsWith('sqlite:')
    ? openSqlitePersistence(url.slice('sqlite:'.length))
    : openPostgresPersistence(url, DEFAULT_STORE_SETTINGS);
  try {
    await store.ready();
    process.stdout.write(`${JSON.stringify(await timeDomainBlock(store))}\n`);
  } finally {
    await store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
