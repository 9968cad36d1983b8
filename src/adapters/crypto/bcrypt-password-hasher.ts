import bcrypt from 'bcrypt';
import pLimit, { type LimitFunction } from 'p-limit';
import { randomBytes } from 'node:crypto';
import { OverloadedError } from '../../application/ports/errors.js';
import type { PasswordHasher } from '../../application/ports/password-hasher.js';
import { HashingLine } from './hashing-line.js';

const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export interface BcryptLineOptions {
  /**
   * The most hashing that may wait its turn, in seconds: a job that would wait longer is refused at once
   * (OverloadedError) instead of queued. Unbounded when not given.
   */
  readonly maxWaitSeconds?: number;
  /** What one job takes before any has been timed here (tests pin it); a guess from the cost otherwise. */
  readonly firstEstimateSeconds?: number;
  /** Told of every refusal, with what the client is told: for the metric and the log. */
  readonly onRefused?: (refusal: { readonly waiting: number; readonly retryAfterSeconds: number }) => void;
}

/**
 * Native bcrypt: hashing and comparing run on libuv's thread pool, so a login storm does not stall the event loop
 * (bcryptjs or hashSync would). The dummy hash has the configured cost, so an unknown user costs a real compare.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  private dummyHash: Promise<string> | null = null;
  private readonly limit: LimitFunction;
  private readonly line: HashingLine;

  /**
   * `atOnce`: hashes and compares running at the same time; the rest wait their turn. One per core keeps a login
   * storm from crowding the event loop off the CPU (the thread pool has more threads than this machine has cores).
   * The line of those waiting is bounded by `options.maxWaitSeconds` of work: an unbounded one let a flood of logins
   * hold every other login (and registration, password change, account deletion) for minutes.
   */
  constructor(
    private readonly cost: number,
    atOnce = Number.POSITIVE_INFINITY,
    private readonly options: BcryptLineOptions = {},
  ) {
    this.limit = pLimit(atOnce);
    this.line = new HashingLine(atOnce, options.firstEstimateSeconds ?? guessSeconds(cost));
  }

  /** Hashes and compares running now. */
  get running(): number {
    return this.limit.activeCount;
  }

  /** Hashes and compares waiting their turn. */
  get waiting(): number {
    return this.limit.pendingCount;
  }

  hash(passwordBytes: Uint8Array): Promise<string> {
    return this.run(() => bcrypt.hash(toBuffer(passwordBytes), this.cost));
  }

  verify(passwordBytes: Uint8Array, hash: string | null): Promise<boolean> {
    // An unknown user gets exactly one compare, as a wrong password does: against the dummy hash, made at start-up.
    if (hash === null)
      return this.run(async () => {
        await bcrypt.compare(toBuffer(passwordBytes), await this.dummy());
        return false;
      });
    return this.run(() => bcrypt.compare(toBuffer(passwordBytes), hash));
  }

  needsRehash(hash: string): boolean {
    // A bcrypt hash names its cost: $2b$12$… (a hash this code cannot read is left alone).
    const cost = /^\$2[abxy]?\$(\d{2})\$/.exec(hash)?.[1];
    return cost !== undefined && Number(cost) !== this.cost;
  }

  /**
   * Computed once, lazily; warm it at start-up so the first unknown-user login is not slower than others. Its
   * duration is the first measure of what a job costs on this machine.
   */
  dummy(): Promise<string> {
    if (!this.dummyHash) {
      const started = performance.now();
      this.dummyHash = bcrypt.hash(randomBytes(32), this.cost).then((hash) => {
        this.line.timed((performance.now() - started) / 1000);
        return hash;
      });
    }
    return this.dummyHash;
  }

  /**
   * Runs a job in its turn, or refuses it at once when the work already waiting would hold it longer than allowed:
   * decided synchronously, before anything is queued, so a flood cannot slip in between check and queue.
   */
  private run<T>(job: () => Promise<T>): Promise<T> {
    const waiting = this.limit.pendingCount;
    const refusal = this.line.refusal(waiting, this.options.maxWaitSeconds);
    if (refusal) {
      this.options.onRefused?.({ waiting, retryAfterSeconds: refusal.retryAfterSeconds });
      return Promise.reject(
        new OverloadedError(
          `${waiting} password hashes and checks are waiting already`,
          refusal.retryAfterSeconds,
        ),
      );
    }
    return this.limit(async () => {
      const started = performance.now();
      try {
        return await job();
      } finally {
        this.line.timed((performance.now() - started) / 1000);
      }
    });
  }
}

/**
 * What one job takes before any is timed: about 45 ms at cost 10 on one core of a current server, doubling with
 * each step of cost. Only the first few refusals of a process depend on it; measurements replace it.
 */
const guessSeconds = (cost: number): number => 0.045 * 2 ** (cost - 10);
