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
 * Thrown by adapters that refuse work when too much of it is already waiting (key generations). The HTTP layer
 * answers it with `503 unavailable` and a Retry-After, as for a store that cannot answer.
 */
export class OverloadedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OverloadedError';
  }
}
