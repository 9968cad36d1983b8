import type { Job } from '../../src/application/ports/job-queue.js';
import type { Positioned } from '../../src/application/ports/positioned.js';
import type { ContractHarness } from '../../src/adapters/persistence/store-driver.js';
import type { Persistence } from '../../src/application/ports/persistence.js';

/**
 * How a contract suite gets a store: its driver's harness (StoreDriver.contractHarness), a fresh, empty store per
 * call, which the suite closes when done.
 */
export type PersistenceHarness<S extends Persistence = Persistence> = ContractHarness<S>;

/** Opens a fresh store before each test and closes it after; the returned getter reads it inside a test. */
export function useStore<S extends Persistence>(harness: PersistenceHarness<S>): () => S {
  let store: S | undefined;
  beforeEach(async () => {
    store = await harness.open();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => {
    if (!store) throw new Error('The store is only open inside a test.');
    return store;
  };
}

/** One of the seeks of a cursor-paged list, with its filter applied. */
export type OlderSeek<T> = (before: number | null, limit: number) => Promise<Positioned<T>[]>;
export type NewerSeek<T> = (after: number, limit: number) => Promise<Positioned<T>[]>;

/** Every entry, newest first, read `pageSize` at a time as a client following `next` cursors would. */
export async function walkOlder<T>(older: OlderSeek<T>, pageSize: number): Promise<Positioned<T>[]> {
  const seen: Positioned<T>[] = [];
  let before: number | null = null;
  for (;;) {
    const page = await older(before, pageSize);
    if (page.length > pageSize) throw new Error(`A page of ${page.length} for a limit of ${pageSize}.`);
    seen.push(...page);
    const last = page[page.length - 1];
    if (page.length < pageSize || !last) return seen;
    before = last.position;
  }
}

/** Every entry above `after`, oldest first, read `pageSize` at a time as a client following `prev` cursors would. */
export async function walkNewer<T>(
  newer: NewerSeek<T>,
  after: number,
  pageSize: number,
): Promise<Positioned<T>[]> {
  const seen: Positioned<T>[] = [];
  for (;;) {
    const page = await newer(after, pageSize);
    if (page.length > pageSize) throw new Error(`A page of ${page.length} for a limit of ${pageSize}.`);
    seen.push(...page);
    const last = page[page.length - 1];
    if (page.length < pageSize || !last) return seen;
    after = last.position;
  }
}

/** Whether each position is strictly below the one before it. */
export const strictlyDecreasing = (entries: readonly Positioned<unknown>[]): boolean =>
  entries.every((entry, i) => i === 0 || entry.position < (entries[i - 1]?.position ?? -Infinity));

/** Whether each position is strictly above the one before it. */
export const strictlyIncreasing = (entries: readonly Positioned<unknown>[]): boolean =>
  entries.every((entry, i) => i === 0 || entry.position > (entries[i - 1]?.position ?? Infinity));

/** Every job due at `at`, claimed and completed batch by batch (a claim takes one job per lane), in claim order. */
export async function drainJobs(store: Persistence, at: Date): Promise<Job[]> {
  const all: Job[] = [];
  for (let batch = 0; ; batch++) {
    const jobs = await store.jobs.claim({
      now: at,
      leaseMs: 60_000,
      limit: 100,
      leaseId: `drain-${at.getTime()}-${batch}-${Math.random()}`,
    });
    if (jobs.length === 0) return all;
    for (const job of jobs) await store.jobs.complete(job);
    all.push(...jobs);
  }
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected a rejection.');
}
