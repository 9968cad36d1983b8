import type { Percentiles } from './latency-recorder.js';

/** One run of bench/bundle-reader.ts. */
export interface BundleReadSpec {
  /** The server, e.g. http://127.0.0.1:1234 */
  readonly base: string;
  /** Paths asked for in turn, round and round. */
  readonly paths: readonly string[];
  readonly connections: number;
  /** How long to go on reading; with `once`, the most it may take. */
  readonly seconds: number;
  /** Read each path once, then stop: a pass over bundles none of which was read before is a pass of cold reads. */
  readonly once?: boolean;
  readonly gzip: boolean;
  /** Close each connection once the answer's headers are in, and open another for the next request. */
  readonly closeAfterHeaders?: boolean;
}

export interface BundleReadResult {
  readonly connections: number;
  /** How long to go on reading; with `once`, the most it may take. */
  readonly seconds: number;
  /** Read each path once, then stop: a pass over bundles none of which was read before is a pass of cold reads. */
  readonly once?: boolean;
  /** 200 answers. */
  readonly ok: number;
  readonly statusCodes: Record<string, number>;
  readonly errors: number;
  /** 200 answers per second. */
  readonly perSecond: number;
  /** Body bytes received per second, MiB (as sent: gzip-encoded when asked). */
  readonly mibPerSecond: number;
  /** Each 200 answer's time, until its body was in (or its headers, closing after them). */
  readonly latencyMs: Percentiles;
}
