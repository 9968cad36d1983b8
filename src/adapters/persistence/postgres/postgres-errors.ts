// Which failures mean "the PostgreSQL server cannot answer now" (a 503, a token check failing closed) rather than a
// bug or a refused write, read from the SQLSTATE the server sends or the code the driver and Node give a failed
// connection. Kept free of the driver library: it is loaded only when STORE names PostgreSQL.

/**
 * SQLSTATE classes of a server that cannot serve us now: 08 connection exception, 53 insufficient resources (too
 * many connections, disk full, out of memory), 57 operator intervention (shutdown, the server starting or in
 * recovery, a statement_timeout), 58 system error (I/O).
 */
const UNAVAILABLE_CLASSES = ['08', '53', '57', '58'];

const UNAVAILABLE_STATES = new Set([
  '25006', // read_only_sql_transaction: connected to a standby (a failover under way, or a URL without read-write)
  '40001', // serialization_failure, once the transaction's own retries are spent
  '40P01', // deadlock_detected, likewise
  '55P03', // lock_not_available (lock_timeout)
  '28000', // invalid_authorization_specification
  '28P01', // invalid_password
  '3D000', // invalid_catalog_name: the database is gone (dropped, or not created yet)
]);

/** Codes of postgres.js and of Node for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EADDRNOTAVAIL',
]);

/** A server error as postgres.js gives it (PostgresError: the server's fields) or a driver/Node error's code. */
interface CodedError {
  readonly code?: unknown;
  readonly severity?: unknown;
}

const codeOf = (error: unknown): string | null => {
  const code = (error as CodedError | null)?.code;
  return typeof code === 'string' ? code : null;
};

/** Whether the error came from the server (it carries a severity and a five-character SQLSTATE). */
const fromServer = (error: unknown): boolean =>
  typeof (error as CodedError | null)?.severity === 'string' && /^[0-9A-Z]{5}$/.test(codeOf(error) ?? '');

/** Whether `error` says the server cannot answer now (as opposed to a bug or a refused write). */
export function meansStoreUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code === null) return false;
  if (fromServer(error))
    return UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || UNAVAILABLE_STATES.has(code);
  // TLS handshakes failing (a certificate not trusted, expired, for another name) come from Node's tls module.
  return CONNECTION_CODES.has(code) || /CERT|SSL|TLS/.test(code);
}

/** Whether the server refused a write on a unique constraint (unique_violation). */
export const isUniqueViolation = (error: unknown): boolean => fromServer(error) && codeOf(error) === '23505';

/** Whether the transaction lost a race that running it again resolves (a serialization failure, a deadlock). */
export const isRetryable = (error: unknown): boolean =>
  fromServer(error) && ['40001', '40P01'].includes(codeOf(error) ?? '');

/** Whether the connection reached a server that cannot take writes (a standby): the pool must connect again. */
export const meansReadOnlyServer = (error: unknown): boolean =>
  fromServer(error) && codeOf(error) === '25006';

/** The message of `error` on one line, for logs and start-up failures. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text.replace(/\s*[\r\n]+\s*/g, ' ').trim() || (error instanceof Error ? error.name : 'unknown error')
  );
}
