import { err, ok, type Result } from './result.js';
import { canParseUrl } from './url-parse.js';

/**
 * The operator's rules on which servers L2 federates with (API.md §4.3 "Domain blocks"). A rule names a host: a host
 * name, which covers that name and every subdomain, or an IP address literal, which covers that address only. Ports
 * are never part of a rule.
 */

/** `blocklist` (the default): every domain federates unless blocked. `allowlist`: only allowed, unblocked ones. */
export type FederationMode = 'blocklist' | 'allowlist';
export const FEDERATION_MODES: readonly FederationMode[] = ['blocklist', 'allowlist'];

export type DomainRuleKind = 'block' | 'allow';

/** A host in its one canonical spelling (see `parseRuleHost`): the only way to make one. */
export type RuleHost = string & { readonly __brand: 'RuleHost' };

export interface DomainRule {
  readonly kind: DomainRuleKind;
  readonly host: RuleHost;
  readonly createdAt: Date;
}

// What makes an operator's HOST something other than a host; each gets its own reason, so the one-line message of
// the CLI says what to write instead.
const REFUSALS: readonly { readonly test: RegExp; readonly reason: string }[] = [
  { test: /:\/\//, reason: 'a host has no scheme: write example.com, not https://example.com' },
  { test: /\*/, reason: 'a host has no wildcard: example.com already covers every subdomain of example.com' },
  { test: /@/, reason: 'a host has no user part: write example.com, not user@example.com' },
  {
    test: /[/\\?#]/,
    reason: 'a host has no path, query or fragment: write example.com, not example.com/path',
  },
  {
    test: /^\[[^\]]*\]:|^[^:[\]]*:[^:]*$/,
    reason: 'a host has no port: a rule covers every port of its host',
  },
  { test: /[%\s]/, reason: 'a host has no spaces or percent signs' },
];

const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * The canonical spelling of the hostname of a parsed URL (WHATWG `URL.hostname`): one trailing dot dropped, so that
 * `example.com.` — the same name, fully qualified — is judged as `example.com`.
 */
const withoutTrailingDot = (hostname: string): string =>
  hostname.endsWith('.') && !hostname.endsWith('..') ? hostname.slice(0, -1) : hostname;

/**
 * An IPv4-mapped IPv6 literal (`[::ffff:7f00:1]`, how the URL standard writes `[::ffff:127.0.0.1]`) as the IPv4
 * address it reaches (`127.0.0.1`), so that a rule on the address cannot be stepped round by writing it so; any
 * other host unchanged.
 */
function unmapped(host: string): string {
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped === null) return host;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The host as the URL standard writes it (lower-case, an IDN as punycode, an IPv4 number dotted, IPv6 shortest), an
 * IPv4-mapped address as IPv4, or null when `host` is no bare host.
 */
function canonicalHost(host: string): string | null {
  // A bare IPv6 literal (`::1`) is written in brackets in a URL; a host with one colon is a host and a port.
  const bracketed = !host.startsWith('[') && (host.match(/:/g)?.length ?? 0) > 1 ? `[${host}]` : host;
  if (!canParseUrl(`http://${bracketed}`)) return null;
  const url = new URL(`http://${bracketed}`);
  const bare =
    url.username === '' &&
    url.password === '' &&
    url.port === '' &&
    url.pathname === '/' &&
    url.search === '';
  return bare && url.hash === '' && url.hostname !== '' ? unmapped(withoutTrailingDot(url.hostname)) : null;
}

/** Whether a canonical host is an IP address literal (`127.0.0.1`, `[::1]`) rather than a name. */
const isAddress = (host: string): boolean => host.startsWith('[') || IPV4.test(host);

/** Whether a canonical host name is one DNS could hold: no empty label, none longer than 63, at most 253 in all. */
function isWellFormedName(host: string): boolean {
  const labels = host.split('.');
  return (
    host.length <= MAX_HOST_LENGTH &&
    labels.every((label) => label !== '' && label.length <= MAX_LABEL_LENGTH)
  );
}

/**
 * Reads the HOST an operator gave a rule: a host name (lower-cased, an IDN as its punycode, one trailing dot
 * dropped) or an IP address literal (`127.1` is `127.0.0.1`; `::1` and `[::1]` are `[::1]`). A scheme, port, path,
 * userinfo or wildcard is refused with a one-line reason, and so is `ownHost` (`new URL(PUBLIC_URL).hostname`, no
 * port): a rule against the service itself would only shut out its own URLs. An IPv4-mapped IPv6 literal is read
 * as the IPv4 address.
 */
export function parseRuleHost(input: string, ownHost: string): Result<RuleHost, string> {
  const given = input.trim();
  if (given === '') return err('a host is needed, e.g. example.com');
  const refusal = REFUSALS.find((r) => r.test.test(given));
  if (refusal !== undefined) return err(`${given}: ${refusal.reason}`);
  const host = canonicalHost(withoutTrailingDot(given));
  if (host === null || (!isAddress(host) && !isWellFormedName(host))) {
    return err(`${given}: not a host name or an IP address`);
  }
  if (host === canonicalHost(withoutTrailingDot(ownHost))) {
    return err(`${given}: that is this service's own host (PUBLIC_URL)`);
  }
  return ok(host as RuleHost);
}

/**
 * The key under which a host is found by the rules that cover it: a name's labels reversed, each followed by a dot
 * (`social.example.com` → `com.example.social.`), so that a rule covers exactly the keys that start with its own key
 * — an index range, and `notexample.com` (`com.notexample.`) is no subdomain of `example.com` (`com.example.`). An IP
 * literal is `[address]` (IPv6 keeps its brackets), which no other key starts with: an address covers itself only.
 * `hostname` is a canonical host (a `RuleHost`, or the hostname of a parsed URL).
 */
export function hostKey(hostname: string): string {
  const host = unmapped(withoutTrailingDot(hostname));
  if (host.startsWith('[')) return host;
  if (IPV4.test(host)) return `[${host}]`;
  return `${host.split('.').reverse().join('.')}.`;
}

/**
 * The host key of the host of `url` — parsed with the URL standard, so that however a peer spells its host (case,
 * an IDN in Unicode, a trailing dot, an IPv4 number), the key is the canonical one — or null when `url` is no
 * absolute URL with a host.
 */
export function hostKeyOfUrl(url: string): string | null {
  if (!canParseUrl(url)) return null;
  const { hostname } = new URL(url);
  return hostname === '' ? null : hostKey(hostname);
}

/** Whether the rule whose key is `ruleKey` covers the host whose key is `key` (the host or one of its subdomains). */
export const ruleCovers = (ruleKey: string, key: string): boolean => key.startsWith(ruleKey);

/**
 * Every rule key that could cover the host whose key is `key`: for `com.example.social.` the keys `com.`,
 * `com.example.` and `com.example.social.`; for an address, its own key. One read of the rules whose key is one of
 * these answers whether any covers the host.
 */
export function candidateRuleKeys(key: string): string[] {
  if (key.startsWith('[')) return [key];
  const labels = key.slice(0, -1).split('.');
  return labels.map((_, i) => `${labels.slice(0, i + 1).join('.')}.`);
}

/**
 * The keys a rule covers as a range, `from <= key < below` in code point order (SQLite's BINARY, PostgreSQL's
 * `COLLATE "C"`, MongoDB without a collation): the rule's key, and the key with its last character — a `.` or a
 * `]`, both ASCII — followed by the next character. Every key that starts with the rule's key lies inside it.
 */
export function ruleKeyRange(ruleKey: string): { readonly from: string; readonly below: string } {
  const last = ruleKey.charCodeAt(ruleKey.length - 1);
  return { from: ruleKey, below: ruleKey.slice(0, -1) + String.fromCharCode(last + 1) };
}

/**
 * Whether L2 federates with a host, given which kinds of rule cover it: a block always wins, in both modes; in
 * allowlist mode an allow rule is needed too.
 */
export function federates(
  covering: { readonly block: boolean; readonly allow: boolean },
  mode: FederationMode,
) {
  if (covering.block) return false;
  return mode === 'blocklist' || covering.allow;
}

/**
 * The hosts whose followers are visible and sent to: null for all (blocklist mode), or in allowlist mode the keys of
 * the allow rules — only followers whose host key one of them covers.
 */
export type HostScope = { readonly allowKeys: readonly string[] } | null;

/**
 * The allowlist scope of the given allow rules: their keys, sorted, without those another one already covers (an
 * allow of `example.com` makes one of `social.example.com` redundant), so that the ranges do not overlap.
 */
export function allowlistScope(allowed: readonly RuleHost[]): NonNullable<HostScope> {
  const keys = [...new Set(allowed.map(hostKey))].sort();
  const minimal: string[] = [];
  for (const key of keys) {
    const previous = minimal[minimal.length - 1];
    if (previous === undefined || !ruleCovers(previous, key)) minimal.push(key);
  }
  return { allowKeys: minimal };
}
