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
