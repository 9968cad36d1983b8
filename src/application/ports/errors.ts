/**
 * Thrown by adapters when the store cannot answer (closed, locked, unreachable). The HTTP layer answers it with
 * `503 unavailable`; a token check that meets it fails closed.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * Thrown by adapters that refuse work when too much of it is already waiting (key generations, password hashes and
 * checks), instead of queueing without end. The HTTP layer answers it with `503 unavailable` and a Retry-After.
 */
export class OverloadedError extends Error {
  constructor(
    message: string,
    /** About when the waiting work will have drained: what Retry-After tells the client. */
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
    this.name = 'OverloadedError';
  }
}

/**
 * Thrown when a write cannot be covered by a signed checkpoint: the transparency log found the store no longer
 * matching what it signed (it then signs nothing), or has not finished checking it. The HTTP layer answers it with
 * `503 unavailable`, as a store that cannot answer.
 */
export class TransparencyLogUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransparencyLogUnavailableError';
  }
}
