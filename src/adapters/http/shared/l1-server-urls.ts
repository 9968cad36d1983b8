import { LRUCache } from 'lru-cache';
import { normaliseL1Server, type L1ServerUrl } from '../../../domain/l1-server.js';

/** Sent URLs remembered, least recently used forgotten first: a handful of L1 servers call verify all day. */
const REMEMBERED_URLS = 1_000;

/**
 * L1 server URLs as sent → their normalised form, for the verify route and its hot path (one per front end, made by
 * the composition root): the same few servers call verify again and again, and each would cost a URL parse.
 */
export class L1ServerUrls {
  /** Boxed, because a URL that is none (null) is worth remembering too. */
  private readonly normalised = new LRUCache<string, { readonly url: L1ServerUrl | null }>({
    max: REMEMBERED_URLS,
  });

  /** The normalised form of an L1 server URL as sent, or null when it is none. */
  normalise(sent: string): L1ServerUrl | null {
    let known = this.normalised.get(sent);
    if (known === undefined) {
      const result = normaliseL1Server(sent);
      known = { url: result.ok ? result.value : null };
      this.normalised.set(sent, known);
    }
    return known.url;
  }
}
