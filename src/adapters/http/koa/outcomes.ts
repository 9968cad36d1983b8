import { StoreUnavailableError } from '../../../application/ports/errors.js';
import { HttpProblem } from './problem.js';

/**
 * Runs a route's work and counts its outcome: `success` when it answers, the problem's code when it refuses
 * (`token_revoked`, `invalid_credentials`, …), `unavailable` when the store cannot answer, `error` for a bug.
 */
export async function counted(count: (outcome: string) => void, success: string, work: () => Promise<void>) {
  try {
    await work();
    count(success);
  } catch (error) {
    count(
      error instanceof HttpProblem
        ? error.code
        : error instanceof StoreUnavailableError
          ? 'unavailable'
          : 'error',
    );
    throw error;
  }
}
