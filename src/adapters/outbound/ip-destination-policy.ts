import type { lookup as dnsLookup } from 'node:dns';
import { promises as dnsPromises, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { DestinationPolicy } from '../../application/ports/destination-policy.js';
import { canParseUrl } from '../../domain/url-parse.js';

/** 2000::/3, the only IPv6 block handed out as global unicast; anything else is reserved, local or special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Why an address may not be contacted, or null for a public unicast address. */
export function nonPublicReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  // A zone index (fe80::1%eth0) names a local interface: never a public destination.
  if (bare.includes('%')) return `${bare} names a local interface`;
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into plain IPv4 before classifying.
  const parsed = ipaddr.process(bare);
  const range = parsed.range();
  if (range !== 'unicast') return `${bare} is a ${range} address`;
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // The deprecated IPv4-compatible form (::127.0.0.1), which ipaddr.js calls unicast.
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return `${bare} embeds an IPv4 address`;
    // ipaddr.js calls every address outside its special ranges unicast, including the unassigned ::/3 and 4000::/2.
    if (!v6.match(GLOBAL_UNICAST_V6)) return `${bare} is not a global unicast address`;
  }
  return null;
}

/** Every address a name has, as the socket's `lookup` will be given them. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

/**
 * SSRF rule of API.md §2: in every mode, loopback, private, link-local and other non-public addresses are refused
 * unless explicitly allowed. Literal addresses are refused before connecting; names are checked on the address
 * they resolve to, at connect time (see {@link guardedLookup}), so DNS rebinding cannot slip past.
 */
export class IpDestinationPolicy implements DestinationPolicy {
  private readonly guarded: typeof dnsLookup;

  /** `resolve` answers the addresses of a name (tests stand in for DNS with it); it defaults to the real DNS. */
  constructor(
    private readonly allowPrivate: boolean,
    private readonly resolve: ResolveAll = resolveAll,
  ) {
    this.guarded = guardedLookup(resolve) as unknown as typeof dnsLookup;
  }

  /**
   * The address a host name (or literal) stands for: the literal itself, else the first address DNS answers. For
   * budgets counted per destination machine; the connection itself is checked again at connect time.
   */
  async addressOf(hostname: string): Promise<string> {
    const bare = hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(bare)) return bare;
    const [first] = await this.resolve(bare.replace(/\.$/, ''));
    if (!first) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    return first.address;
  }

  async check(url: string): Promise<string | null> {
    if (this.allowPrivate) return null;
    if (!canParseUrl(url)) return 'not a valid URL';
    // A trailing dot (`localhost.`) names the same host.
    const hostname = new URL(url).hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) return 'localhost is not a public host';
    return ipaddr.isValid(hostname) ? nonPublicReason(hostname) : null;
  }

  /** A `lookup` for http.request that fails the connection when a name resolves to a non-public address. */
  get lookup(): typeof dnsLookup | undefined {
    return this.allowPrivate ? undefined : this.guarded;
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * Names are resolved with c-ares (`dns.Resolver`), not getaddrinfo: getaddrinfo runs on libuv's thread pool, which
 * also signs deliveries and hashes passwords, so a peer whose name servers never answer could stall them all.
 * A single-label name (`localhost`, a container's service name) can only be local: the system resolver answers it.
 */
const resolver = new dnsPromises.Resolver({ timeout: 3000, tries: 2 });

async function resolveAll(hostname: string): Promise<LookupAddress[]> {
  if (!hostname.includes('.')) return dnsPromises.lookup(hostname, { all: true });
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  const addresses = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (addresses.length === 0)
    throw v4.status === 'rejected' ? v4.reason : new Error(`${hostname} has no address`);
  return addresses;
}

const lookupError = (message: string, code: string): NodeJS.ErrnoException =>
  Object.assign(new Error(message), { code });

/**
 * The `lookup` the socket connects through (net.connect calls it with `all: true` when it may try several
 * addresses, Node ≥ 20's autoSelectFamily, else for one address of `family`). A name is refused when ANY of its
 * addresses is non-public, not only the one picked, so the answer connected to is always one that was checked.
 */
function guardedLookup(resolve: ResolveAll) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string } | number | undefined,
    callback: LookupCallback,
  ): void => {
    const { all = false, family: wanted = 0 } = typeof options === 'object' ? options : { family: options };
    // The callback runs outside the promise, so that whatever net does in it cannot become an unhandled rejection.
    const answer = (...args: Parameters<LookupCallback>) => process.nextTick(() => callback(...args));
    resolve(hostname).then(
      (resolved) => {
        const refused = resolved.map((a) => nonPublicReason(a.address)).find((reason) => reason !== null);
        if (refused !== undefined)
          return answer(lookupError(`destination refused: ${refused}`, 'EREFUSED_PRIVATE'), []);
        const family = Number(String(wanted).replace('IPv', '')) || 0;
        const addresses = family === 0 ? resolved : resolved.filter((a) => a.family === family);
        const first = addresses[0];
        // net indexes the first address even with `all`: an empty answer must be an error.
        if (!first) return answer(lookupError(`${hostname} has no IPv${family} address`, 'ENOTFOUND'), []);
        return all ? answer(null, addresses) : answer(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => answer(error, []),
    );
  };
}
