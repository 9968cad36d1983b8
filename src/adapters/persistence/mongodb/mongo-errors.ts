import {
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoExpiredSessionError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';
import { StoreUnavailableError } from '../../../application/ports/errors.js';

/** The server's code for a write refused by a unique index (E11000). */
export const DUPLICATE_KEY = 11000;

/**
 * Server error codes that mean "this node cannot serve you now" (network trouble seen by a router, a primary
 * stepping down or shutting down, an election, a write concern that timed out), as the driver's own retry logic
 * lists them. They reach us when the driver's single retry failed too.
 */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernTimeout (WriteConcernFailed before 8.1)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  133, // FailedToSatisfyReadPreference
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10058, // LegacyNotPrimary
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** Labels the driver puts on errors it would retry, or did retry, because the deployment was momentarily unwell. */
const UNAVAILABLE_LABELS = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.ResumableChangeStreamError,
  MongoErrorLabel.TransientTransactionError,
  MongoErrorLabel.UnknownTransactionCommitResult,
];

/** Driver errors not exported by name (connection pool internals): closed pool, cleared pool, queue timeout. */
const UNAVAILABLE_NAMES = new Set([
  'MongoPoolClosedError',
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
]);

/** Whether `error` says the deployment cannot answer now (as opposed to a bug or a refused write). */
export function meansStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof MongoError)) return false;
  if (
    // No server usable within serverSelectionTimeoutMS (none reachable, no primary for a write or a primary read).
    error instanceof MongoServerSelectionError ||
    // Connection failures and timeouts, a pool cleared under an operation (PoolClearedOnNetworkError is one too).
    error instanceof MongoNetworkError ||
    // A primary the driver no longer believes (an election newer than its own was seen): the set is failing over.
    error instanceof MongoStalePrimaryError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoExpiredSessionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoWriteConcernError ||
    UNAVAILABLE_NAMES.has(error.name)
  ) {
    return true;
  }
  if (UNAVAILABLE_LABELS.some((label) => error.hasErrorLabel(label))) return true;
  return (
    error instanceof MongoServerError && typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code)
  );
}

/** A duplicate key refusal that is final: not a write conflict the transaction machinery will retry. */
export function isDuplicateKey(error: unknown): boolean {
  return (
    error instanceof MongoServerError &&
    error.code === DUPLICATE_KEY &&
    !error.hasErrorLabel(MongoErrorLabel.TransientTransactionError)
  );
}

/** The message of `error` on one line (driver messages may hold line breaks), for logs and start-up failures. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text.replace(/\s*[\r\n]+\s*/g, ' ').trim() || (error instanceof Error ? error.name : 'unknown error')
  );
}

/**
 * Runs one store operation, rethrowing failures of the deployment itself as `StoreUnavailableError` (so the HTTP
 * layer answers 503 and token checks fail closed); anything else — a bug, a duplicate key the caller did not
 * expect — propagates unchanged.
 */
export async function storeCall<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof StoreUnavailableError || !meansStoreUnavailable(error)) throw error;
    throw new StoreUnavailableError(`The MongoDB store cannot answer: ${oneLine(error)}`, { cause: error });
  }
}
