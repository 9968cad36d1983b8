// The kit's watch over L2's transparency log (docs/transparency.md in L2): every interval, the pass that
// `l2 tlog verify` makes — check the signed checkpoint, check it extends the one checked last, rebuild what is new
// from the entries — raising an event for what it found. The pass itself is L2's own verifier, the package
// @l2/tlog that L2 runs too, so the kit and L2's CLI cannot disagree.
import { EventEmitter } from 'node:events';
import type { LogVerificationFailure, LogVerifierState } from '@l2/tlog';
import {
  describeOutcome,
  evidenceOf,
  httpLogFetch,
  loadVerifierState,
  monitoredLog,
  monitorLog,
  saveVerifierState,
  type MonitorOutcome,
} from '@l2/tlog/client';
import { nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import type { FetchLike } from './http.js';

export type { LogVerificationFailure, LogVerifierState };

/** Where the watch keeps the last checkpoint it checked, between passes and across restarts. */
export interface LogStateStore {
  load(): LogVerifierState | null | Promise<LogVerifierState | null>;
  save(state: LogVerifierState): void | Promise<void>;
}

export interface LogWatchOptions {
  /** L2's URL — its `PUBLIC_URL`; the log is under `<l2>/tlog/` and its origin is derived from it. */
  l2: string;
  /**
   * L2's verifier key (`GET <l2>/tlog/key`), obtained once, out of band, and kept in your configuration: a key
   * fetched from the log at every start would let the log vouch for itself.
   */
  verifierKey: string;
  /**
   * The file (JSON, the format of `l2 tlog verify --state`) or store keeping the last checked checkpoint. Default:
   * in memory only — every restart then trusts the first checkpoint it sees, and a fork across a restart goes
   * unnoticed. Give a file in production.
   */
  state?: string | LogStateStore;
  /** Pause between the end of a pass and the start of the next. Default 60 000 ms; at least 1 000. */
  intervalMs?: number;
  /** Rebuild every tile from the entries at every pass, not only those not checked before. Default false. */
  full?: boolean;
  /** Log resources fetched at once. Default 8. */
  concurrency?: number;
  /** Deadline of one request to the log. Default 30 000 ms. */
  timeoutMs?: number;
  /** The `fetch` to read the log with. Default the global one. */
  fetch?: FetchLike;
}

/** The log checked out: it extends what was checked before (or this is the first check). */
export interface LogVerified {
  readonly kind: 'verified';
  readonly size: number;
  /** base64 */
  readonly rootHash: string;
  /** The signed checkpoint, verbatim. */
  readonly checkpoint: string;
  /** The size checked before, or null on a first check. */
  readonly previousSize: number | null;
  readonly checkedTiles: number;
  readonly checkedEntries: number;
  readonly description: string;
}

/**
 * The log contradicts a checkpoint it signed before: another history at the same or a larger size (a fork), or a
 * smaller tree. The saved state is kept, so every later pass raises this again until someone looks.
 */
export interface LogFork {
  readonly kind: 'fork';
  readonly failure: Extract<LogVerificationFailure, { type: 'fork' | 'tree_shrank' }>;
  /** Both signed checkpoints, verbatim: proof for anyone holding the verifier key. */
  readonly evidence: string;
  readonly description: string;
}

/** The log misbehaved otherwise: a bad signature, a tile its entries do not give, a covered resource missing. */
export interface LogMisbehaved {
  readonly kind: 'misbehaved';
  readonly failure: LogVerificationFailure;
  readonly description: string;
}

/** The log could not be read (network, 5xx, no checkpoint): nothing was learnt, the saved state is kept. */
export interface LogUnreachable {
  readonly kind: 'unreachable';
  readonly description: string;
}

export type LogCheck = LogVerified | LogFork | LogMisbehaved | LogUnreachable;

export interface LogWatchEvents {
  verified: [LogVerified];
  fork: [LogFork];
  misbehaved: [LogMisbehaved];
  unreachable: [LogUnreachable];
  /** The state could not be loaded or saved. Without a listener it goes to `console.error`. */
  error: [Error];
}

const DEFAULT_INTERVAL_MS = 60_000;
const MIN_INTERVAL_MS = 1_000;

/** Starts watching L2's log: a first pass at once, then one every `intervalMs`. */
export function watchLog(options: LogWatchOptions): LogWatch {
  return new LogWatch(options).start();
}

export class LogWatch extends EventEmitter<LogWatchEvents> {
  readonly #options: LogWatchOptions;
  readonly #origin: string;
  readonly #store: LogStateStore | null;
  readonly #intervalMs: number;
  /** The last checked state: undefined until loaded, null before any check. */
  #state: LogVerifierState | null | undefined = undefined;
  #pass: Promise<LogCheck> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running = false;

  /** Checks the options (throws a TypeError saying what is wrong); does not start. */
  constructor(options: LogWatchOptions) {
    super();
    const log = monitoredLog(nodeSha256, options.l2, options.verifierKey);
    if (!log.ok)
      throw new TypeError(`watchLog: ${describeOutcome({ kind: 'not_checked', problem: log.error })}`);
    const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    if (!Number.isFinite(intervalMs) || intervalMs < MIN_INTERVAL_MS)
      throw new TypeError(`watchLog: intervalMs must be at least ${MIN_INTERVAL_MS}`);
    this.#options = options;
    this.#origin = log.value.origin;
    this.#intervalMs = intervalMs;
    this.#store = typeof options.state === 'string' ? fileStore(options.state) : (options.state ?? null);
  }

  /** The last checkpoint checked (null before the first check). */
  get state(): LogVerifierState | null {
    return this.#state ?? null;
  }

  /** Starts the periodic passes (the first at once). The timer does not keep the process alive. */
  start(): this {
    if (this.#running) return this;
    this.#running = true;
    this.#schedule(0);
    return this;
  }

  /** Stops the passes; resolves once a pass under way has ended. */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#pass?.catch(() => undefined);
  }

  /**
   * One pass now (joining the one under way, if any): raises its event and resolves with it. Rejects only when
   * the state cannot be loaded or saved.
   */
  checkNow(): Promise<LogCheck> {
    this.#pass ??= this.#check().finally(() => (this.#pass = null));
    return this.#pass;
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.checkNow()
        .catch((error: Error) => {
          if (this.listenerCount('error') > 0) this.emit('error', error);
          else console.error(`l1-kit watchLog: ${error.message}`);
        })
        .finally(() => {
          if (this.#running && this.#timer === null) this.#schedule(this.#intervalMs);
        });
    }, delayMs);
    this.#timer.unref();
  }

  async #check(): Promise<LogCheck> {
    const saved = await this.#loadState();
    const outcome = await monitorLog({
      publicUrl: this.#options.l2,
      verifierKey: this.#options.verifierKey,
      saved,
      full: this.#options.full ?? false,
      crypto: nodeSha256,
      verifyEd25519,
      concurrency: this.#options.concurrency ?? 8,
      fetch: httpLogFetch(`${this.#options.l2.replace(/\/+$/, '')}/tlog/`, {
        ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
        ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
      }),
    });
    const check = checkOf(outcome);
    if (check.kind === 'verified' && outcome.kind === 'verified') {
      await this.#store?.save(outcome.verification.state);
      this.#state = outcome.verification.state;
    }
    this.#raise(check);
    return check;
  }

  async #loadState(): Promise<LogVerifierState | null> {
    if (this.#state !== undefined) return this.#state;
    const loaded = (await this.#store?.load()) ?? null;
    if (loaded !== null && loaded.origin !== this.#origin)
      throw new Error(`the saved state is of the log ${loaded.origin}, not of ${this.#origin}`);
    this.#state = loaded;
    return loaded;
  }

  #raise(check: LogCheck): void {
    switch (check.kind) {
      case 'verified':
        return void this.emit('verified', check);
      case 'fork':
        return void this.emit('fork', check);
      case 'misbehaved':
        return void this.emit('misbehaved', check);
      case 'unreachable':
        return void this.emit('unreachable', check);
    }
  }
}

function checkOf(outcome: MonitorOutcome): LogCheck {
  const description = describeOutcome(outcome);
  switch (outcome.kind) {
    case 'verified': {
      const { state, previousSize, checkedTiles, checkedEntries } = outcome.verification;
      const { size, rootHash, checkpoint } = state;
      return {
        kind: 'verified',
        size,
        rootHash,
        checkpoint,
        previousSize,
        checkedTiles,
        checkedEntries,
        description,
      };
    }
    case 'misbehaved': {
      const { failure } = outcome;
      if (failure.type === 'fork' || failure.type === 'tree_shrank')
        return { kind: 'fork', failure, evidence: evidenceOf(failure)!, description };
      return { kind: 'misbehaved', failure, description };
    }
    case 'not_checked':
      return { kind: 'unreachable', description };
  }
}

function fileStore(file: string): LogStateStore {
  return { load: () => loadVerifierState(file), save: (state) => saveVerifierState(file, state) };
}
