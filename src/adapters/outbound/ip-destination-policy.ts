import type { lookup as dnsLookup } from 'node:dns';
import { promises as dnsPromises, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { DestinationPolicy } from '../../application/ports/destination-policy.js';

/** Why an address may not be contacted, or null for a public unicast address. */
export function nonPublicReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into plain IPv4 before classifying.
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6)) {
    // The deprecated IPv4-compatible form (::127.0.0.1), which ipaddr.js calls unicast.
    return `${bare} embeds an IPv4 address`;
  }
  const range = parsed.range();
  return range === 'unicast' ? null : `${bare} is a ${range} address`;
}

const isIpv4Compatible = (address: ipaddr.IPv6): boolean =>
  address.parts.slice(0, 6).every((part) => part === 0);

/**
 * SSRF rule of API.md §2: in production, loopback, private, link-local and other non-public addresses are refused
 * unless explicitly allowed. Literal addresses are refused before connecting; names are checked on the address
 * they resolve to, at connect time (see {@link guardedLookup}), so DNS rebinding cannot slip past.
 */
export class IpDestinationPolicy implements DestinationPolicy {
  constructor(private readonly allowPrivate: boolean) {}

  async check(url: string): Promise<string | null> {
    if (this.allowPrivate) return null;
    const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) return 'localhost is not a public host';
    return ipaddr.isValid(hostname) ? nonPublicReason(hostname) : null;
  }

  /** A `lookup` for http.request that fails the connection when a name resolves to a non-public address. */
  get lookup(): typeof dnsLookup | undefined {
    return this.allowPrivate ? undefined : (guardedLookup as unknown as typeof dnsLookup);
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

function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  resolveAll(hostname).then(
    (resolved) => {
      const family = Number(String(options.family ?? 0).replace('IPv', '')) || 0;
      const addresses = family === 0 ? resolved : resolved.filter((a) => a.family === family);
      const refused = addresses.map((a) => nonPublicReason(a.address)).find((reason) => reason !== null);
      if (refused)
        return callback(
          Object.assign(new Error(`destination refused: ${refused}`), { code: 'EREFUSED_PRIVATE' }),
          [],
        );
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(new Error('no address'), []);
    },
    (error: NodeJS.ErrnoException) => callback(error, []),
  );
}
