import bcrypt from 'bcrypt';
import { randomBytes } from 'node:crypto';
import { OverloadedError } from '../../application/ports/errors.js';
import type { PasswordHasher } from '../../application/ports/password-hasher.js';
import { clientShare, FairHashingQueue } from './fair-hashing-queue.js';
import { HashingLine } from './hashing-line.js';

/**
 * Why a job was refused: the whole line is full and its client holds no more of it than anyone (`line_full`), or it
 * is the newest of the client holding most of a full line (`client_share`) — turned away to make room for another
 * client's, or refused at once when it would have joined it.
 */
export type RefusalReason = 'line_full' | 'client_share';

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
  readonly onRefused?: (refusal: {
    readonly reason: RefusalReason;
    readonly waiting: number;
    readonly retryAfterSeconds: number;
  }) => void;
  /** Told of every unknown-user check answered from a timer instead of compared: for the metric and the log. */
  readonly onShed?: () => void;
  /** Waits that many seconds (a timer; tests record the wait instead). */
  readonly delay?: (seconds: number) => Promise<void>;
}

const timer = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Native bcrypt: hashing and comparing run on libuv's thread pool, so a login storm does not stall the event loop
 * (bcryptjs or hashSync would). The dummy hash has the configured cost, so an unknown user costs a real compare —
 * while a core of its share is free; when none is, its answer (false, always) comes from a timer after what a check
 * takes to answer now, so that a flood of invented usernames spends no core that a real login needs (issue 33).
 */
export class BcryptPasswordHasher implements PasswordHasher {
  private dummyHash: Promise<string> | null = null;
  private readonly cores: FairHashingQueue;
  private readonly line: HashingLine;

  /**
   * `atOnce`: hashes and compares running at the same time; the rest wait their turn. One per core keeps a login
   * storm from crowding the event loop off the CPU (the thread pool has more threads than this machine has cores).
   * The line of those waiting is bounded by `options.maxWaitSeconds` of work: an unbounded one let a flood of logins
   * hold every other login (and registration, password change, account deletion) for minutes. The clients take
   * turns at the cores, and a full line sheds the newest check of the client holding most of it.
   */
  constructor(
    private readonly cost: number,
    atOnce = Number.POSITIVE_INFINITY,
    private readonly options: BcryptLineOptions = {},
  ) {
    this.cores = new FairHashingQueue(atOnce);
    this.line = new HashingLine(atOnce, options.firstEstimateSeconds ?? guessSeconds(cost));
  }

  /** Hashes and compares running now. */
  get running(): number {
    return this.cores.running;
  }

  /** Hashes and compares waiting their turn. */
  get waiting(): number {
    return this.cores.waiting;
  }

  hash(passwordBytes: Uint8Array): Promise<string> {
    return this.run(null, () => bcrypt.hash(toBuffer(passwordBytes), this.cost));
  }

  verify(passwordBytes: Uint8Array, hash: string | null, clientAddress?: string): Promise<boolean> {
    if (hash === null) return this.unknownUser(passwordBytes);
    const share = clientAddress === undefined ? null : clientShare(clientAddress);
    return this.answered(this.run(share, () => bcrypt.compare(toBuffer(passwordBytes), hash)));
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
   * An unknown user: one compare against the dummy hash, made at start-up, as a wrong password gets — when a core of
   * the dummies' share is free. Otherwise it would only take a core or a place in line from a real login, while its
   * answer is false whatever happens: that answer comes after what a check takes to answer now, without hashing.
   */
  private unknownUser(passwordBytes: Uint8Array): Promise<boolean> {
    const compared = this.cores.runDummyNow(() =>
      this.timed(async () => {
        await bcrypt.compare(toBuffer(passwordBytes), await this.dummy());
        return false;
      }),
    );
    if (compared) return this.answered(compared);
    this.options.onShed?.();
    return (this.options.delay ?? timer)(this.line.answerSeconds).then(() => false);
  }

  /** The check's answer, its time from now to the answer learnt as what a check takes (a refusal is not one). */
  private answered<T>(check: Promise<T>): Promise<T> {
    const asked = performance.now();
    return check.then((answer) => {
      this.line.answered((performance.now() - asked) / 1000);
      return answer;
    });
  }

  /**
   * Runs a job in its turn (the cores go to the clients in turn: FairHashingQueue). When the work already waiting
   * would hold it longer than allowed, the line makes room by turning away the newest check of the client holding
   * most of it — at least two places more than this job's client — else this job is refused at once. Decided
   * synchronously, before anything is queued, so a flood cannot slip in between check and queue.
   */
  private run<T>(share: string | null, job: () => Promise<T>): Promise<T> {
    if (!this.cores.coreFree) {
      const waiting = this.cores.waiting;
      const full = this.lineFull(waiting);
      if (full) {
        const heaviest = this.cores.heaviest();
        const makesRoom =
          heaviest !== null && heaviest.share !== share && heaviest.waiting > this.cores.waitingOf(share) + 1;
        if (!makesRoom) {
          const reason = heaviest !== null && heaviest.share === share ? 'client_share' : 'line_full';
          return Promise.reject(this.refused(reason, waiting, full.retryAfterSeconds));
        }
        this.cores.dropNewestOf(
          heaviest.share,
          this.refused('client_share', waiting, full.retryAfterSeconds),
        );
      }
    }
    return this.cores.run(share, () => this.timed(job));
  }

  private refused(reason: RefusalReason, waiting: number, retryAfterSeconds: number): OverloadedError {
    this.options.onRefused?.({ reason, waiting, retryAfterSeconds });
    return new OverloadedError(
      `${waiting} password hashes and checks are waiting already`,
      retryAfterSeconds,
    );
  }

  private lineFull(waiting: number) {
    return this.line.refusal(waiting, this.options.maxWaitSeconds);
  }

  /** Runs the job, its running time learnt as what a job takes. */
  private async timed<T>(job: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await job();
    } finally {
      this.line.timed((performance.now() - started) / 1000);
    }
  }
}

/**
 * What one job takes before any is timed: about 45 ms at cost 10 on one core of a current server, doubling with
 * each step of cost. Only the first few refusals of a process depend on it; measurements replace it.
 */
const guessSeconds = (cost: number): number => 0.045 * 2 ** (cost - 10);
