// Rule (API.md §8): every write is covered by a signed checkpoint before it is answered, and L2 never signs a
// fork — it signs only the root of a tree it rebuilt itself from the stored entries, which must extend every
// checkpoint signed before. Several instances on one store sign the same bytes for the same size.
import {
  bytesEqual,
  formatVerifierKey,
  noteSigner,
  openCheckpoint,
  parseVerifierKey,
  rangeHashReader,
  signCheckpoint,
  treeHash,
  type Ed25519KeyPair,
  type NoteSigner,
  type NoteVerifierKey,
  type Sha256,
  type StoredHashReader,
  type VerifyEd25519,
} from '@l2/tlog';
import { TransparencyLogUnavailableError } from '../../ports/errors.js';
import type { FullLogCheck } from '../../ports/full-log-check.js';
import type { ProblemLog } from '../../ports/problem-log.js';
import type { SignedCheckpoint, TransparencyLogStore } from '../../ports/transparency-log-store.js';
import type { TransparencyObserver } from '../../ports/transparency-observer.js';
import { LogInconsistency, VerifiedTree } from './verified-tree.js';

export interface TransparencyLogSettings {
  /** The log's origin (from PUBLIC_URL), the name its key signs under. */
  readonly origin: string;
  /** The Ed25519 key of `tlog_signing_key`. */
  readonly key: Ed25519KeyPair;
  readonly crypto: Sha256;
  readonly verifyEd25519: VerifyEd25519;
  /** Lets other work run between batches of a long check (the composition gives it setImmediate). */
  readonly pause: () => Promise<void>;
  /**
   * Group commit: a signing round starts at least this long after the one before, so that under a stream of writes
   * one signature covers several (each waits at most this much longer); rounds far apart start at once. 0: never
   * wait. Waits through `wait` (the composition gives it setTimeout).
   */
  readonly roundIntervalMs?: number;
  readonly wait?: (ms: number) => Promise<void>;
  /**
   * Runs the start-up check of a large log in another process (the composition gives one for a SQLite file), so
   * that the memory its reads leave behind is not this process's; without it, the check reads here.
   */
  readonly fullCheck?: FullLogCheck;
}

/** Where the log stands: being checked at start-up, checked and signing, or found changed (and never signing). */
export type LogHealth =
  | { readonly state: 'checking' }
  | { readonly state: 'consistent' }
  | { readonly state: 'inconsistent'; readonly reason: string };

interface Waiter {
  readonly size: number;
  resolve(checkpoint: SignedCheckpoint): void;
  reject(error: unknown): void;
}

/**
 * The transparency log of one process: checks the store at start-up, signs checkpoints that cover the writes
 * (one signing at a time, each covering every write waiting), serves the latest checkpoint, and reads hashes and
 * entries for tiles and proofs.
 */
export class TransparencyLog {
  readonly verifierKey: string;
  private readonly key: NoteVerifierKey;
  private readonly signer: NoteSigner;
  private readonly tree: VerifiedTree;
  private current: LogHealth = { state: 'checking' };
  private started: Promise<void> | null = null;
  /** The largest checkpoint this process has seen kept in the store (its own or another instance's). */
  private latestSeen: SignedCheckpoint | null = null;
  private readonly waiting: Waiter[] = [];
  /** The last checkpoint this process signed or checked: found kept again, it needs no second check. */
  private trusted: SignedCheckpoint | null = null;
  private signing = false;
  /** When the last signing round started (performance.now()), for the group commit. */
  private lastRound = -Infinity;

  constructor(
    private readonly store: TransparencyLogStore,
    private readonly settings: TransparencyLogSettings,
    private readonly observer: TransparencyObserver,
    private readonly problems: ProblemLog,
  ) {
    const { crypto, origin, key } = settings;
    this.verifierKey = formatVerifierKey(crypto, origin, key.publicKey);
    const parsed = parseVerifierKey(crypto, this.verifierKey);
    if (!parsed.ok) throw new Error(`the log's own verifier key does not parse: ${parsed.error.type}`);
    this.key = parsed.value;
    this.signer = noteSigner(crypto, origin, key);
    this.tree = new VerifiedTree(store, crypto, settings.pause);
  }

  get origin(): string {
    return this.settings.origin;
  }

  health(): LogHealth {
    return this.current;
  }

  /**
   * Records the origin at the first start and answers the one the store holds: a caller that finds another origin
   * than its own must not start (API.md §8).
   */
  pinOrigin(): Promise<string> {
    return this.store.pinOrigin(this.settings.origin);
  }

  /**
   * The start-up check, once per process (later calls wait for the first): rebuilds the tree from every stored
   * entry, compares it with the stored hashes and the latest checkpoint, then signs a checkpoint over whatever
   * the store holds beyond it. A mismatch is reported (log line, metric) and makes the log inconsistent for good:
   * nothing more is signed, writes are refused, the last good checkpoint stays served.
   */
  start(): Promise<void> {
    this.started ??= this.check().catch((error: unknown) => {
      // A store that could not answer is checked again at the next call; an inconsistency is settled for good.
      if (this.current.state !== 'inconsistent') this.started = null;
      throw error;
    });
    return this.started;
  }

  private async check(): Promise<void> {
    const began = performance.now();
    const state = await this.store.state();
    const marks = state.checkpoint ? [state.checkpoint.size] : [];
    await this.guarded(async () => {
      if (state.checkpoint && state.checkpoint.size > state.size) {
        throw new LogInconsistency(
          `the store holds ${state.size} entries, fewer than its checkpoint of ${state.checkpoint.size}`,
        );
      }
      const { fullCheck } = this.settings;
      if (fullCheck && this.tree.size === 0 && state.size >= fullCheck.minSize)
        this.tree.adopt(await fullCheck.check(state.size, marks));
      else await this.tree.extendTo(state.size, marks);
      if (state.checkpoint) this.checkKept(state.checkpoint);
    });
    this.current = { state: 'consistent' };
    this.latestSeen = state.checkpoint;
    this.observer.checked(state.size, (performance.now() - began) / 1000);
    // The history beyond the last checkpoint (or all of it, on the first start) is signed now; an empty log gets
    // its empty checkpoint, so that a checkpoint is always served.
    if (!state.checkpoint || state.checkpoint.size < state.size) await this.signFor(state.size);
  }

  /**
   * Resolves once a signed checkpoint of at least `size` entries is kept in the store, signing one if need be;
   * rejects with TransparencyLogUnavailableError when the log is inconsistent.
   */
  async cover(size: number): Promise<SignedCheckpoint> {
    if (this.latestSeen && this.latestSeen.size >= size) return this.latestSeen;
    this.refuseUnlessConsistent();
    await this.start();
    return this.signFor(size);
  }

  /** Waits for the signing round that covers `size` (the check itself starts one, so it cannot wait for start()). */
  private signFor(size: number): Promise<SignedCheckpoint> {
    if (this.latestSeen && this.latestSeen.size >= size) return Promise.resolve(this.latestSeen);
    return new Promise<SignedCheckpoint>((resolve, reject) => {
      this.waiting.push({ size, resolve, reject });
      void this.signForWaiting();
    });
  }

  /** Throws TransparencyLogUnavailableError when the log is known inconsistent (before a write stores anything). */
  refuseUnlessConsistent(): void {
    if (this.current.state === 'inconsistent')
      throw new TransparencyLogUnavailableError(
        'the transparency log no longer matches the stored activities; nothing is signed until an operator acts',
      );
  }

  /** One signing at a time: each round covers every write that was waiting when it began. */
  private async signForWaiting(): Promise<void> {
    if (this.signing) return;
    this.signing = true;
    try {
      while (this.waiting.length > 0) {
        const { roundIntervalMs = 0, wait } = this.settings;
        const early = this.lastRound + roundIntervalMs - performance.now();
        if (early > 0 && wait) await wait(early);
        this.lastRound = performance.now();
        const round = this.waiting.splice(0);
        try {
          const checkpoint = await this.signLatest();
          for (const waiter of round) {
            if (checkpoint.size >= waiter.size) waiter.resolve(checkpoint);
            else waiter.reject(new Error(`no entry ${waiter.size - 1} in the store to cover`));
          }
        } catch (error) {
          for (const waiter of round) waiter.reject(error);
        }
      }
    } finally {
      this.signing = false;
    }
  }

  /** Signs the store's whole tree unless a checkpoint of it is kept already; answers the checkpoint kept. */
  private async signLatest(): Promise<SignedCheckpoint> {
    const state = await this.store.state();
    const kept = state.checkpoint;
    if (kept && kept.size >= state.size) return this.saw(kept);
    const checkpoint = await this.guarded(async () => {
      await this.tree.extendTo(state.size, kept ? [kept.size] : []);
      if (kept) await this.checkKeptAsync(kept);
      const note = signCheckpoint(
        { origin: this.settings.origin, size: state.size, rootHash: this.tree.root(), extensions: [] },
        this.signer,
      );
      return { size: state.size, note };
    });
    this.trusted = checkpoint;
    const stored = await this.store.recordCheckpoint(checkpoint);
    this.observer.signed(checkpoint.size);
    if (stored) return this.saw(checkpoint);
    // Another instance kept one as large or larger meanwhile: that one is served (and covers this size).
    const now = (await this.store.state()).checkpoint;
    return this.saw(now && now.size >= checkpoint.size ? now : checkpoint);
  }

  /** The latest checkpoint kept in the store, read now (every instance serves the one the store holds). */
  async latest(): Promise<SignedCheckpoint | null> {
    const { checkpoint } = await this.store.state();
    return checkpoint ? this.saw(checkpoint) : this.latestSeen;
  }

  /** The size the latest checkpoint this process has seen covers (without a store read; 0 before any). */
  latestSize(): number {
    return this.latestSeen?.size ?? 0;
  }

  /** Kept hashes read from the store (for tiles and proofs). */
  readonly reader: StoredHashReader = rangeHashReader((level, first, count) =>
    this.store.hashes(level, first, count),
  );

  entries(first: number, count: number): Promise<Uint8Array[]> {
    return this.store.entries(first, count);
  }

  get crypto(): Sha256 {
    return this.settings.crypto;
  }

  private saw(checkpoint: SignedCheckpoint): SignedCheckpoint {
    if (!this.latestSeen || checkpoint.size > this.latestSeen.size) this.latestSeen = checkpoint;
    return checkpoint;
  }

  /** A kept checkpoint must be one this log's key signed over the root this process rebuilt at its size. */
  private checkKept(kept: SignedCheckpoint): void {
    const root = this.tree.rootAt(kept.size);
    if (!root) throw new Error(`no root remembered at ${kept.size}`);
    this.compareKept(kept, root);
  }

  private async checkKeptAsync(kept: SignedCheckpoint): Promise<void> {
    // Passed before this round (this process signed beyond it, or checked it at start-up): the stored hashes up to
    // the tree's size were checked against the entries, so they give its root.
    const root =
      this.tree.rootAt(kept.size) ?? (await treeHash(this.settings.crypto, this.reader, kept.size));
    this.compareKept(kept, root);
  }

  private compareKept(kept: SignedCheckpoint, root: Uint8Array): void {
    if (this.trusted?.size === kept.size && this.trusted.note === kept.note) return;
    const opened = openCheckpoint(kept.note, this.key, this.settings.verifyEd25519, this.settings.origin);
    if (!opened.ok || opened.value.checkpoint.size !== kept.size)
      throw new LogInconsistency(`the kept checkpoint of size ${kept.size} is not one this log's key signed`);
    if (!bytesEqual(opened.value.checkpoint.rootHash, root))
      throw new LogInconsistency(
        `the stored entries do not give the root of the checkpoint of size ${kept.size}: history was rewritten`,
      );
    this.trusted = kept;
  }

  /** Runs `work`; a LogInconsistency it meets makes the log inconsistent for good, reported once. */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof LogInconsistency)) throw error;
      if (this.current.state !== 'inconsistent') {
        this.current = { state: 'inconsistent', reason: error.message };
        this.observer.inconsistent();
        this.problems.error(
          { reason: error.message, origin: this.settings.origin },
          'transparency log inconsistent: the stored activities no longer match what was signed; nothing will be signed',
        );
      }
      throw new TransparencyLogUnavailableError(error.message);
    }
  }
}
