/** One load run, as bench/load.ts takes it. */
export interface LoadSpec {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  /** The request body: JSON text unless `headers` name another content-type (application/json by default). */
  readonly body?: string;
  readonly connections: number;
  /** How long the run lasts; with `amount`, only how long the bench waits for it (plus 90 s). */
  readonly seconds: number;
  /** Exactly this many requests, then the run ends (autocannon's `amount`): for bodies that can be used once. */
  readonly amount?: number;
  /**
   * A file of request bodies, one a line, each sent once in order (a code can be redeemed once): the file, not the
   * spec, holds them, since the spec travels as one command-line argument.
   */
  readonly bodiesFile?: string;
  /**
   * The answer a request should get, when it is not a 2xx (a refusal under measurement): the rates, `ok` and the
   * latencies count this status instead.
   */
  readonly expectedStatus?: number;
  /** Each request registers a new user (a fresh username) with this password. */
  readonly uniqueRegistration?: boolean;
  /** Each request registers a new asset (a fresh name), as `headers` authenticate it. */
  readonly uniqueAsset?: boolean;
  readonly password?: string;
}

/** What bench/load.ts reports: every rate counts 2xx answers only (or the spec's `expectedStatus`). */
export interface LoadResult {
  readonly connections: number;
  /** How long the run lasts; with `amount`, only how long the bench waits for it (plus 90 s). */
  readonly seconds: number;
  /** Exactly this many requests, then the run ends (autocannon's `amount`): for bodies that can be used once. */
  readonly amount?: number;
  /**
   * A file of request bodies, one a line, each sent once in order (a code can be redeemed once): the file, not the
   * spec, holds them, since the spec travels as one command-line argument.
   */
  readonly bodiesFile?: string;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
  /** Bytes received per 2xx answer, headers included (autocannon counts 2xx bytes only): what they carried. */
  readonly meanResponseBytes?: number;
  /** 2xx answers per second over the whole run. */
  readonly rps: number;
  readonly latencyMs: {
    readonly mean: number;
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly start: string;
  readonly finish: string;
}
