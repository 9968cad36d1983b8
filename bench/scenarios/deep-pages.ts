// Scenario 3, lists: the latency of a page near the oldest entry against the first page, on a seeded store.
import { getJson, localPath, type ListPage } from '../http.js';
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

export interface PagePair {
  readonly firstPath: string;
  readonly deepPath: string;
  /** How many entries the list holds (its `total` / `totalItems`). */
  readonly total: number;
  readonly first: LoadResult;
  readonly deep: LoadResult;
}

function requireLink(page: ListPage, rel: 'next' | 'prev', what: string): string {
  const link = page[rel];
  if (typeof link !== 'string') throw new Error(`${what} has no ${rel} link`);
  return localPath(link);
}

/**
 * Finds the deepest page that a reader following `next` links would reach, using only links the service emits:
 * the oldest page (`after=-1`, the outbox's `last`), its `prev` (the second-oldest page), and that page's `next`
 * — a `before=` cursor whose page holds the oldest entries of the list.
 */
export async function deepPagePath(base: string, oldestPath: string): Promise<string> {
  const oldest = await getJson<ListPage>(`${base}${oldestPath}`);
  const second = await getJson<ListPage>(`${base}${requireLink(oldest, 'prev', oldestPath)}`);
  return requireLink(second, 'next', 'the second-oldest page');
}

const latency = (base: string, path: string, profile: Profile) =>
  measure(
    {
      url: `${base}${path}`,
      headers: { accept: 'application/json' },
      connections: CONNECTIONS.latency,
      seconds: profile.latencySeconds,
    },
    profile.warmUpSeconds,
  );

/** `firstPath` is the list's first page; `oldestPath` the same list at `after=-1`. */
export async function pagePair(
  base: string,
  firstPath: string,
  oldestPath: string,
  profile: Profile,
): Promise<PagePair> {
  const deepPath = await deepPagePath(base, oldestPath);
  const firstPage = await getJson<ListPage>(`${base}${firstPath}`);
  const deepPage = await getJson<ListPage>(`${base}${deepPath}`);
  const size = (page: ListPage) => (page.items ?? page.orderedItems ?? []).length;
  if (size(firstPage) === 0 || size(deepPage) === 0)
    throw new Error(`empty page: ${firstPath} / ${deepPath}`);
  const first = await latency(base, firstPath, profile);
  const deep = await latency(base, deepPath, profile);
  return { firstPath, deepPath, total: firstPage.total ?? firstPage.totalItems ?? 0, first, deep };
}

export interface DeepPageResults {
  readonly activities: PagePair;
  readonly outbox: PagePair;
  readonly registry: PagePair;
  /** The first outbox page of a user with few activities: what the heavy user's first page is compared with. */
  readonly lightOutbox: LoadResult;
  readonly lightOutboxTotal: number;
}

export async function deepPages(
  base: string,
  users: { heavy: string; light: string },
  profile: Profile,
): Promise<DeepPageResults> {
  const outbox = (u: string) => `/users/${u}/outbox?page=true`;
  const lightPath = outbox(users.light);
  const lightPage = await getJson<ListPage>(`${base}${lightPath}`);
  return {
    activities: await pagePair(base, '/activities?limit=20', '/activities?limit=20&after=-1', profile),
    outbox: await pagePair(base, outbox(users.heavy), `${outbox(users.heavy)}&after=-1`, profile),
    registry: await pagePair(base, '/registry?limit=20', '/registry?limit=20&after=-1', profile),
    lightOutbox: await latency(base, lightPath, profile),
    lightOutboxTotal: lightPage.totalItems ?? 0,
  };
}
