/**
 * A map that forgets: past its bound, the least recently used entry goes first. The application keeps in one only
 * what it can read or work out again (a decoded token, a log entry), so forgetting costs time, never an answer.
 */
export interface BoundedCache<K, V> {
  /** The value kept for `key`, which becomes the most recently used; undefined when none is kept. */
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
}

/** How much a cache keeps. */
export interface CacheBounds<V> {
  /** The most entries kept. */
  readonly max: number;
  /**
   * A bound on the entries' total weight too (bytes, for a cache of large values), each weighed by `weigh` when it is
   * set: past it the least recently used go, and a value heavier than the whole bound is not kept at all.
   */
  readonly weight?: { readonly total: number; readonly weigh: (value: V) => number };
}

/**
 * Makes the application's caches, each with its own bound; the composition root decides how they are kept
 * (docs/adr/0009: lru-cache). A parameter, not a private Map, so that every cache forgets the same way.
 */
export interface CacheFactory {
  create<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
    bounds: CacheBounds<V>,
  ): BoundedCache<K, V>;
}
