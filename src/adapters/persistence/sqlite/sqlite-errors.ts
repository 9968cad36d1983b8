import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../../../application/ports/errors.js';

/** Result codes (and their extended forms, e.g. SQLITE_BUSY_SNAPSHOT) that mean the store cannot answer now. */
const UNAVAILABLE_CODES = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_PROTOCOL',
];

/** better-sqlite3 throws a plain TypeError, not a SqliteError, once the connection is closed. */
const CLOSED_MESSAGE = 'The database connection is not open';

export function meansStoreUnavailable(error: unknown): boolean {
  if (error instanceof Database.SqliteError) {
    return UNAVAILABLE_CODES.some((code) => error.code === code || error.code.startsWith(`${code}_`));
  }
  return error instanceof TypeError && error.message.includes(CLOSED_MESSAGE);
}

/**
 * Runs one store operation, rethrowing failures of the store itself as `StoreUnavailableError` (so the HTTP layer
 * answers 503 and token checks fail closed); anything else — a bug, a constraint — propagates unchanged.
 */
export function storeCall<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof StoreUnavailableError || !meansStoreUnavailable(error)) throw error;
    throw new StoreUnavailableError(`The SQLite store cannot answer: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
