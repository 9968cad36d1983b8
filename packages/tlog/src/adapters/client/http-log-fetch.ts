// Fetching a tiled log's resources over HTTP(S) with the runtime's fetch: what `l2 tlog verify` and the L1 kit's
// watch read the log through. Imports nothing but the log's domain.
import type { FetchLogResource } from '../../domain/index.js';

/** The log answered something other than the resource or "not found" (a 5xx, a redirect, a network failure). */
export class LogFetchError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(`${url}: ${message}`);
    this.name = 'LogFetchError';
  }
}

export interface HttpLogFetchOptions {
  /** The fetch to use (the runtime's by default; tests and the kit may give their own). */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** How long one request may take, in milliseconds (default 30 s). */
  readonly timeoutMs?: number;
  /**
   * Entry bundles fetched at once (default 2): L2 builds at most two bundles at once for one address and answers a
   * third `429` (docs/security.md), so a monitor asking for more would only be told to come back.
   */
  readonly bundlesAtOnce?: number;
  /** Times a `429` or `503` with Retry-After is asked again, after the wait it names (default 5). */
  readonly retries?: number;
  /** Waits `ms` milliseconds (setTimeout by default; tests give their own). */
  readonly wait?: (ms: number) => Promise<void>;
}

/** The longest Retry-After honoured: a log that asks for more is asked again sooner (and may refuse again). */
const MAX_RETRY_AFTER_SECONDS = 30;
const RETRIED = new Set([429, 503]);

/** Seconds to wait before asking again, from a Retry-After of seconds (a date, or nothing, counts as 1). */
function retryAfterMs(header: string | null): number {
  const seconds = header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : 1;
  return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_SECONDS) * 1000;
}

/** At most `limit` of the calls through it run at once; the others wait their turn, first come first served. */
function gate(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * Resources of the log under `prefix` (e.g. `https://l2.example/tlog/`): the bytes for 200, null for 404, a
 * LogFetchError for anything else. Entry bundles come gzip-encoded when fetch asks for it; fetch decodes them. A log
 * that is busy (`429`, `503` with Retry-After) is asked again after the wait it names.
 */
export function httpLogFetch(prefix: string, options: HttpLogFetchOptions = {}): FetchLogResource {
  const get = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 5;
  const wait = options.wait ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const bundleTurn = gate(options.bundlesAtOnce ?? 2);

  const once = async (url: string): Promise<Uint8Array | null> => {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await get(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        throw new LogFetchError(url, (error as Error).message);
      }
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (response.status === 200) return new Uint8Array(await response.arrayBuffer());
      await response.body?.cancel();
      const retryAfter = response.headers.get('retry-after');
      if (!RETRIED.has(response.status) || retryAfter === null || attempt >= retries)
        throw new LogFetchError(url, `answered ${response.status}`);
      await wait(retryAfterMs(retryAfter));
    }
  };

  return (path) => {
    const url = `${prefix}${path}`;
    return path.startsWith('tile/entries/') ? bundleTurn(() => once(url)) : once(url);
  };
}
