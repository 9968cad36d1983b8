// What every store folder (memory/, sqlite/, mongodb/, and the next one) exports, so that the composition root picks
// a store from the scheme of STORE in one table (composition/store-drivers.ts) and nothing else names a store:
//  - a StoreUrl, light (no driver library): which STORE values it takes, checked when the configuration is read;
//  - a StoreDriver, loaded only once STORE names the store: open, the rate-limit counters next to the data, the
//    contract suites' harness. Readiness (connect, migrate) and the transfer (export/import) are ports of the
//    store it opens (Persistence.ready, Persistence.transfer).
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { FullLogCheck } from '../../application/ports/full-log-check.js';
import type { Persistence } from '../../application/ports/persistence.js';
import type { StoreInstruments } from '../../application/ports/store-instruments.js';

/** The STORE values of one kind of store. */
export interface StoreUrl {
  /** How such a URL is written, for the one line that refuses any other (`sqlite:<path>`). */
  readonly form: string;
  /** Whether STORE names a store of this kind. */
  names(url: string): boolean;
  /** Why a URL this kind names cannot be opened as written (a SQLite URL without a path), or null. */
  problemWith(url: string): string | null;
}

/**
 * Where the rate-limit counters live: next to the data, so that every process on the store shares them. The
 * throttle adapter's CounterStore is this shape.
 */
export interface RateLimitCounters {
  /** A limiter of `points` per `duration` seconds whose keys start with `keyPrefix` (every limit shares one table). */
  limiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract;
  /** Forgets counters whose window ended before `now`; nothing where the store expires them itself. */
  purgeExpired(now: Date): Promise<void>;
}

/** How a store that is a server is reached (STORE_POOL_SIZE, …); the stores in this process ignore it. */
export interface StoreSettings {
  /** Connections at most, per process. */
  readonly poolSize: number;
  /** How long making a connection may take before the store counts as unavailable. */
  readonly connectTimeoutSeconds: number;
  /** An idle connection is closed after this long (0: kept). */
  readonly idleTimeoutSeconds: number;
  /** A connection is replaced after this long (0: kept): a server moved behind a name is followed. */
  readonly maxLifetimeSeconds: number;
}

export const DEFAULT_STORE_SETTINGS: StoreSettings = {
  poolSize: 10,
  connectTimeoutSeconds: 5,
  idleTimeoutSeconds: 120,
  maxLifetimeSeconds: 1800,
};

/** A store as this process opened it. */
export interface OpenedStore<S extends Persistence = Persistence> {
  /** Every port; `ready()` connects and migrates where that is still to do, `transfer` exports and imports. */
  readonly persistence: S;
  readonly counters: RateLimitCounters;
  /** The start-up check of the whole transparency log outside this process, where the store can run one. */
  readonly fullLogCheck?: FullLogCheck;
  /** The pool's figures and the operations' latency, where the store keeps a pool. */
  readonly instruments?: StoreInstruments;
  /** How far the store server's clock is ahead of this process's, in ms (negative: behind), where it is a server. */
  readonly clockOffsetMs?: () => Promise<number>;
}

/** How the contract suites get a store: a fresh, empty one per `open()`, gone once closed (test/contract). */
export interface ContractHarness<S extends Persistence = Persistence> {
  open(): Promise<S>;
}

export interface StoreDriver<S extends Persistence = Persistence> {
  /** Opens the store `url` (STORE) names, migrated where the store migrates on open; not yet ready. */
  open(url: string, settings?: StoreSettings): OpenedStore<S>;
  /**
   * Why a command run beside the service (`l2 …`) cannot use this store — it lives inside the service's process —
   * or absent when it can.
   */
  readonly commandsRefused?: string;
  /**
   * The contract suites' harness. A store that is a server takes the URL of one to make a database on for each
   * store it opens (the test passes it, or skips the suites without one).
   */
  contractHarness(serverUrl?: string): ContractHarness<S>;
}
