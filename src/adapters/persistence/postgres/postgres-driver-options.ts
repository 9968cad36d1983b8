// What postgres.js is given: the URL (less what it would misread) and the options L2 sets — the pool from the
// configuration unless the URL sets it, TLS, numbers for bigint columns, silence for notices, and the session
// settings a store shared by several instances needs. docs/adr/0018 says why each.
import { existsSync, readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import type { Options, PostgresType } from 'postgres';
import type { StoreSettings } from '../store-driver.js';
import type { PostgresLocation } from './postgres-url.js';

/**
 * Query parameters L2 reads itself and takes out of the URL: postgres.js passes any parameter it does not know to
 * the server as a setting, which the server refuses (sslrootcert, `system` included: postgres.js reads that one too
 * but still sends it), or refuses one libpq allows (target_session_attrs `any`, libpq's default: the same as none).
 * sslcert and sslkey never get here: the URL check refuses them. `max` is read here too: postgres.js takes the
 * URL's as a string, and makes a pool of one connection of `?max=20`.
 */
const READ_HERE = ['sslrootcert', 'max'];

/**
 * The URL postgres.js reads: the given one, without the parameters L2 reads itself, and `read-write` asked as
 * `primary`. postgres.js judges `read-write` by `default_transaction_read_only` alone, which a hot standby of
 * PostgreSQL 14 or later reports `off` at start (libpq also asks `in_hot_standby`): a standby listed first — the old
 * primary come back after a failover — would be kept, every write refused, and reads (revocations included) served
 * from a replica that may lag. `primary` is judged by `in_hot_standby`, which is what `read-write` means for L2.
 */
export function driverUrl(url: string, location: PostgresLocation): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const query = new URLSearchParams(location.query);
  for (const name of READ_HERE) query.delete(name);
  const attrs = query.get('target_session_attrs');
  if (attrs === 'any') query.delete('target_session_attrs');
  if (attrs === 'read-write') query.set('target_session_attrs', 'primary');
  const rest = query.toString();
  return rest === '' ? url.slice(0, question) : `${url.slice(0, question)}?${rest}`;
}

/**
 * int8 as a JavaScript number: positions, ids and counts stay far below 2^53 (postgres.js gives strings by default,
 * for values that would not fit).
 */
const BIGINT_AS_NUMBER: PostgresType<number> = {
  to: 20,
  from: [20],
  serialize: (value: number) => String(value),
  parse: (text: string) => Number(text),
};

/**
 * Session settings sent when each connection starts (the URL's own parameters override them):
 * - `idle_in_transaction_session_timeout`: a transaction left open by an instance that vanished (a host lost, not a
 *   process killed: the kernel closes a killed process's socket) is ended by the server after 30 s, releasing the
 *   row locks the appends of the other instances wait for;
 * - `statement_timeout` and `lock_timeout`: a statement that runs, or waits for a lock, longer than 10 s is
 *   cancelled, and the request answers 503 rather than hanging (the export, the import and migrations lift both
 *   for their own transaction: UNHURRIED);
 * - `DateStyle`: times are read back in the ISO form the driver parses, whatever the server's default.
 */
const SESSION = {
  application_name: 'l2',
  idle_in_transaction_session_timeout: 30_000,
  statement_timeout: 10_000,
  lock_timeout: 10_000,
  DateStyle: 'ISO, MDY',
};

/** Reconnection back-off in seconds after the `retries`-th failure in a row: 0.1, 0.2, 0.4 … at most 2, jittered. */
const backoff = (retries: number): number =>
  Math.min(0.1 * 2 ** Math.max(0, retries - 1), 2) * (0.75 + Math.random() / 2);

type DriverOptions = Options<{ bigint: PostgresType<number> }>;

/** Connections at most: the URL's `max` (checked a whole number by the URL check) over STORE_POOL_SIZE. */
export function poolSizeInEffect(location: PostgresLocation, settings: StoreSettings): number {
  const max = location.query.get('max');
  return max === null ? settings.poolSize : Number(max);
}

/** postgres.js options for the store at `location`; `closed` hears each connection that closes. */
export function driverOptions(
  location: PostgresLocation,
  settings: StoreSettings,
  closed: () => void,
): DriverOptions {
  const { query } = location;
  // An option the URL sets is the operator's: postgres.js takes an option given here over the URL's.
  const unlessInUrl = <K extends keyof DriverOptions>(name: K, value: DriverOptions[K]) =>
    query.has(name) ? {} : { [name]: value };
  return {
    max: poolSizeInEffect(location, settings),
    ...unlessInUrl('connect_timeout', settings.connectTimeoutSeconds),
    ...unlessInUrl(
      'idle_timeout',
      settings.idleTimeoutSeconds === 0 ? undefined : settings.idleTimeoutSeconds,
    ),
    ...unlessInUrl('max_lifetime', settings.maxLifetimeSeconds === 0 ? null : settings.maxLifetimeSeconds),
    ...tlsOptions(query),
    backoff,
    types: { bigint: BIGINT_AS_NUMBER },
    // Notices (`relation … already exists, skipping`) would go to standard output.
    onnotice: () => undefined,
    onclose: closed,
    connection: SESSION,
  };
}

/**
 * `sslrootcert=<file>`: the server's certificate is checked against the PEM certificates in the file (libpq's
 * meaning), its name too unless `sslmode=verify-ca`; `sslrootcert=system`: against the system's authorities, name
 * included (libpq's meaning: verify-full). The URL check refuses sslrootcert beside an sslmode that would not check
 * it. Other sslmode values are postgres.js's own: `require` encrypts without checking the certificate,
 * `verify-full` checks it against Node's trusted authorities (NODE_EXTRA_CA_CERTS adds one).
 */
function tlsOptions(query: URLSearchParams): Pick<DriverOptions, 'ssl'> | Record<string, never> {
  const rootCert = query.get('sslrootcert');
  if (rootCert === null) return {};
  const verifyName = query.get('sslmode') !== 'verify-ca';
  return {
    ssl: {
      ca: rootCert === 'system' ? systemAuthorities() : readFileSync(rootCert, 'utf8'),
      rejectUnauthorized: true,
      ...(verifyName ? {} : { checkServerIdentity: () => undefined }),
    },
  };
}

/** Where distributions keep the system's trusted authorities (Debian and Alpine, Red Hat, the BSDs and macOS). */
const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
];

/** The system's trusted authorities (not Node's bundled list): Node's own reading where it has one (22.15+). */
function systemAuthorities(): string | string[] {
  const fromNode = (tls as { getCACertificates?: (kind: string) => string[] }).getCACertificates;
  if (fromNode) return fromNode('system');
  const bundle = process.env.SSL_CERT_FILE ?? SYSTEM_BUNDLES.find((file) => existsSync(file));
  if (bundle === undefined)
    throw new Error('sslrootcert=system: no system certificate bundle found (set SSL_CERT_FILE to one)');
  return readFileSync(bundle, 'utf8');
}
