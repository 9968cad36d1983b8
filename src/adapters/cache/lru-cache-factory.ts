import { LRUCache } from 'lru-cache';
import type { BoundedCache, CacheBounds, CacheFactory } from '../../application/ports/bounded-cache.js';

/** The application's caches on lru-cache, as the adapters' own are (docs/adr/0009). */
export class LruCacheFactory implements CacheFactory {
  create<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
    bounds: CacheBounds<V>,
  ): BoundedCache<K, V> {
    const { max, weight } = bounds;
    if (!weight) return new LRUCache<K, V>({ max });
    // lru-cache wants a positive size for every entry.
    return new LRUCache<K, V>({
      max,
      maxSize: weight.total,
      sizeCalculation: (value) => Math.max(1, weight.weigh(value)),
    });
  }
}
