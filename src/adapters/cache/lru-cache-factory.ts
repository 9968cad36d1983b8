import { LRUCache } from 'lru-cache';
import type { BoundedCache, CacheFactory } from '../../application/ports/bounded-cache.js';

/** The application's caches on lru-cache, as the adapters' own are (docs/adr/0009). */
export class LruCacheFactory implements CacheFactory {
  create<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(bounds: {
    readonly max: number;
  }): BoundedCache<K, V> {
    return new LRUCache<K, V>({ max: bounds.max });
  }
}
