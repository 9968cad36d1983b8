// STORE=postgres://… (or postgresql://…), libpq's URL form: `postgres://user:password@host:port/database?options`,
// with several hosts for a failover (`postgres://h1:5432,h2:5432/l2?target_session_attrs=read-write`). Read here
// without the driver (the configuration checks STORE before any store is opened), and never echoed whole: every
// message names the hosts and the database only, so that the password in the URL reaches no log, answer or error.
import type { StoreUrl } from '../store-driver.js';

const SCHEMES = ['postgres://', 'postgresql://'];

/** What a PostgreSQL URL names, as far as messages and the driver's options need it. */
export interface PostgresLocation {
  /** `host:port` of each host, in the URL's order (5432 where none is given). */
  readonly hosts: readonly string[];
  readonly database: string | null;
  /** The password as written in the URL (decoded), or null: what redact() takes out of any text. */
  readonly password: string | null;
  readonly query: URLSearchParams;
}

/** The sslmode values libpq knows (postgres.js reads them; verify-ca is checked as verify-full there). */
const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];
const SESSION_ATTRS = ['read-write', 'read-only', 'primary', 'standby', 'prefer-standby', 'any'];

/** Reads a PostgreSQL URL, or says in one line (without the URL) why it cannot be one. */
export function parsePostgresUrl(url: string): PostgresLocation | { readonly problem: string } {
  const scheme = SCHEMES.find((s) => url.startsWith(s));
  if (!scheme) return { problem: `must start with ${SCHEMES.join(' or ')}` };
  const rest = url.slice(scheme.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  const userInfo = at === -1 ? null : authority.slice(0, at);
  const hostList = at === -1 ? authority : authority.slice(at + 1);
  const hosts: string[] = [];
  for (const host of hostList === '' ? ['localhost'] : hostList.split(',')) {
    const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host);
    if (!match) return { problem: 'a host of the URL is not host[:port]' };
    const port = Number(match[2] ?? 5432);
    if (port < 1 || port > 65535) return { problem: 'a port of the URL is not between 1 and 65535' };
    hosts.push(`${match[1]}:${port}`);
  }
  let parsed: URL;
  try {
    // The path and query read by the platform's parser, with one placeholder host (several would not parse).
    parsed = new URL(`postgres://host${authorityEnd === -1 ? '' : rest.slice(authorityEnd)}`);
  } catch {
    return { problem: 'the path or query of the URL cannot be read' };
  }
  let password: string | null = null;
  try {
    const colon = userInfo?.indexOf(':') ?? -1;
    if (userInfo !== null && colon !== -1) password = decodeURIComponent(userInfo.slice(colon + 1));
  } catch {
    return { problem: 'the user or password of the URL is not percent-encoded properly' };
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || null;
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode !== null && !SSL_MODES.includes(sslmode))
    return { problem: `sslmode must be one of ${SSL_MODES.join(', ')}` };
  const max = parsed.searchParams.get('max');
  if (max !== null && !(/^\d{1,4}$/.test(max) && Number(max) >= 1 && Number(max) <= 1000))
    return { problem: 'max must be a whole number from 1 to 1000' };
  const tls = tlsProblem(parsed.searchParams);
  if (tls !== null) return { problem: tls };
  const attrs = parsed.searchParams.get('target_session_attrs');
  if (attrs !== null && !SESSION_ATTRS.includes(attrs))
    return { problem: `target_session_attrs must be one of ${SESSION_ATTRS.join(', ')}` };
  return { hosts, database, password: password === '' ? null : password, query: parsed.searchParams };
}

/**
 * What L2 will not do with the URL's TLS files: client certificates (postgres.js would send sslcert and sslkey to the
 * server as settings, which it refuses; no test here runs certificate sign-in), and a root certificate beside an
 * sslmode that would not check it — `disable`/`prefer` silently forced to TLS, or `require` silently checked.
 * libpq's rule for `sslrootcert=system` (verify-full only) is kept.
 */
function tlsProblem(query: URLSearchParams): string | null {
  const clientFiles = ['sslcert', 'sslkey'].filter((name) => query.has(name));
  if (clientFiles.length > 0)
    return `${clientFiles.join(' and ')} (client certificates) are not supported: sign in with a password`;
  const rootCert = query.get('sslrootcert');
  const sslmode = query.get('sslmode');
  if (rootCert === null || sslmode === null) return null;
  if (rootCert === 'system' && sslmode !== 'verify-full')
    return 'sslrootcert=system needs sslmode=verify-full';
  if (sslmode !== 'verify-full' && sslmode !== 'verify-ca')
    return 'sslrootcert needs sslmode=verify-full or verify-ca (or no sslmode, which means verify-full)';
  return null;
}

/** `postgres://…` or `postgresql://…`, read by parsePostgresUrl. */
export const POSTGRES_URL: StoreUrl = {
  form: 'postgres://…',
  names: (url) => SCHEMES.some((scheme) => url.startsWith(scheme)),
  problemWith: (url) => {
    const parsed = parsePostgresUrl(url);
    return 'problem' in parsed ? `the PostgreSQL URL ${parsed.problem}` : null;
  },
};

/** The hosts and database a URL names, without user or password: what messages say. */
export function whereIs(location: PostgresLocation): string {
  return `${location.hosts.join(',')}/${location.database ?? ''}`;
}

/** `text` with the URL's password (as written, and percent-encoded) replaced: for any message that quotes a driver. */
export function redact(text: string, location: PostgresLocation): string {
  const { password } = location;
  if (password === null) return text;
  let out = text;
  for (const form of new Set([password, encodeURIComponent(password)])) out = out.split(form).join('***');
  return out;
}
