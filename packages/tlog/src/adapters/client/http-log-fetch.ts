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
}

/**
 * Resources of the log under `prefix` (e.g. `https://l2.example/tlog/`): the bytes for 200, null for 404, a
 * LogFetchError for anything else. Entry bundles come gzip-encoded when fetch asks for it; fetch decodes them.
 */
export function httpLogFetch(prefix: string, options: HttpLogFetchOptions = {}): FetchLogResource {
  const get = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (path) => {
    const url = `${prefix}${path}`;
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
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new LogFetchError(url, `answered ${response.status}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  };
}
