import { L2UnavailableError } from './errors.js';
import { callL2, parseRetryAfter, type FetchLike, type L2Answer } from './http.js';

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The kit's one way to L2: every request with the deadline and the cap on the answer, and the pause that a
 * `Retry-After` on any answer (verification, discovery, the code exchange) imposes on verification — one pause for
 * the whole kit, since L2 asked all of this server's requests to wait.
 */
export class L2Client {
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #maxRetryAfterSeconds: number;
  #pausedUntil = 0;

  constructor(
    options: { fetch: FetchLike; timeoutMs: number; maxRetryAfterSeconds: number },
    /** The clock, in epoch milliseconds. */
    readonly now: () => number,
  ) {
    this.#fetch = options.fetch;
    this.#timeoutMs = options.timeoutMs;
    this.#maxRetryAfterSeconds = options.maxRetryAfterSeconds;
  }

  /** One request (see {@link callL2}): an {@link L2UnavailableError} whenever no complete answer arrives. */
  request(url: string | URL, init: RequestInit): Promise<L2Answer> {
    return callL2(url, init, { fetch: this.#fetch, timeoutMs: this.#timeoutMs, maxBytes: MAX_ANSWER_BYTES });
  }

  /**
   * The error for an answer that gives no verdict. A `503` or `429` with `Retry-After` (cut to the configured
   * longest pause) also pauses verification until then.
   */
  unavailable(answer: L2Answer, now = this.now()): L2UnavailableError {
    let retryAfter: number | undefined;
    if (answer.status === 503 || answer.status === 429) {
      const asked = parseRetryAfter(answer.headers.get('retry-after'), now);
      if (asked !== undefined) {
        retryAfter = Math.min(asked, this.#maxRetryAfterSeconds);
        this.#pausedUntil = Math.max(this.#pausedUntil, now + retryAfter * 1000);
      }
    }
    return new L2UnavailableError('status', `L2 answered ${answer.status}`, retryAfter);
  }

  /** While a pause L2 asked for lasts: the error to fail with instead of asking. Otherwise `undefined`. */
  paused(now: number): L2UnavailableError | undefined {
    if (this.#pausedUntil <= now) return undefined;
    const wait = Math.ceil((this.#pausedUntil - now) / 1000);
    return new L2UnavailableError('backoff', `L2 asked to retry after ${wait} s`, wait);
  }
}
