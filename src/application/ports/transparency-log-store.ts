/** A checkpoint L2 signed, as the store keeps it: its tree size and the signed note, verbatim. */
export interface SignedCheckpoint {
  readonly size: number;
  /** The signed note (c2sp.org/tlog-checkpoint), byte for byte what `GET /tlog/checkpoint` answers. */
  readonly note: string;
}

/** What the store holds of the transparency log, read at one point in time. */
export interface TransparencyLogState {
  /** Entries in the log: the activity log's next idx. */
  readonly size: number;
  /** The origin recorded at the first start (API.md §8), or null before it. */
  readonly origin: string | null;
  /** The latest checkpoint signed, or null before the first. */
  readonly checkpoint: SignedCheckpoint | null;
}

/**
 * The transparency log as a store keeps it (docs/adr/0013): the activity log's append transaction stores, beside
 * each activity, its leaf hash, the hash of every tile it completes at each level (c2sp.org/tlog-tiles), and the
 * tree's right edge. Entries are the stored documents themselves, never copied. This port reads those and keeps
 * the latest signed checkpoint; nothing here appends.
 */
export interface TransparencyLogStore {
  state(): Promise<TransparencyLogState>;
  /**
   * Records `origin` as the log's origin when none is recorded yet, and answers the origin the store holds after
   * the call (the given one, or the one recorded before). Idempotent.
   */
  pinOrigin(origin: string): Promise<string>;
  /**
   * The kept hashes of tile level `level` (0: leaf hashes) at positions [first, first + count), in order. Throws
   * when any of them is not stored (a position beyond what the log has completed).
   */
  hashes(level: number, first: number, count: number): Promise<Uint8Array[]>;
  /**
   * The entries at [first, first + count): each activity's document as the stored UTF-8 bytes, in idx order. Throws
   * when any of them is not stored.
   */
  entries(first: number, count: number): Promise<Uint8Array[]>;
  /**
   * Keeps `checkpoint` as the latest when it is larger than the one kept (several instances may sign at once; the
   * largest wins, and they sign the same size identically). True when it was kept, false when the kept one was
   * as large or larger.
   */
  recordCheckpoint(checkpoint: SignedCheckpoint): Promise<boolean>;
}

/** Thrown by a store asked for hashes or entries it does not hold (beyond the log, or removed from it). */
export class LogDataMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogDataMissingError';
  }
}
