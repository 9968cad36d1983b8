import ipaddr from 'ipaddr.js';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { StoreUnavailableError } from '../../application/ports/errors.js';
import type { LoginThrottle, ThrottleVerdict } from '../../application/ports/login-throttle.js';

/**
 * Consumes one point, answering how long to wait when the allowance is used up. rate-limiter-flexible rejects
 * with a RateLimiterRes for "limited" and with an Error when its store fails: that one must become a 503.
 */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key, 1);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
    throw new StoreUnavailableError('rate-limit counters could not be written', { cause: rejection });
  }
}

export const verdictOf = (waitMs: number): ThrottleVerdict =>
  waitMs > 0 ? { limited: true, retryAfterSeconds: Math.ceil(waitMs / 1000) } : { limited: false };

async function storeCall(operation: () => Promise<unknown>): Promise<void> {
  try {
    await operation();
  } catch (cause) {
    throw new StoreUnavailableError('login attempt counters could not be written', { cause });
  }
}

/** The limiters of the networks around an IPv6 /64: one home's /56 and one site's /48. */
export interface WiderNetworkLimiters {
  readonly slash56: RateLimiterAbstract;
  readonly slash48: RateLimiterAbstract;
}

/**
 * Attempt counters from rate-limiter-flexible: one limiter keyed by username, one by client address (an IPv4
 * address or an IPv6 /64), and for IPv6 one per /56 and one per /48 — a home holds 256 /64s and a site 65,536, so a
 * budget per /64 alone lets one subscriber multiply it. Each allows `points` attempts per window. Backed by memory,
 * SQLite or MongoDB, so every process sharing the store shares the counts, and a consume is atomic in each store.
 */
export class RateLimiterLoginThrottle implements LoginThrottle {
  constructor(
    private readonly byUsername: RateLimiterAbstract,
    private readonly byAddress: RateLimiterAbstract,
    private readonly byWiderNetwork: WiderNetworkLimiters,
  ) {}

  async attempt(username: string, clientAddress: string): Promise<ThrottleVerdict> {
    const waits = await Promise.all([
      consume(this.byUsername, username),
      ...this.addressKeys(clientAddress).map(([limiter, key]) => consume(limiter, key)),
    ]);
    return verdictOf(Math.max(...waits));
  }

  async succeeded(username: string, clientAddress: string): Promise<void> {
    await storeCall(() =>
      Promise.all([
        this.byUsername.delete(username),
        ...this.addressKeys(clientAddress).map(([limiter, key]) => limiter.reward(key, 1)),
      ]),
    );
  }

  async notChecked(username: string): Promise<void> {
    await storeCall(() => this.byUsername.reward(username, 1));
  }

  /** Every address budget an attempt from `clientAddress` counts against, with its key. */
  private addressKeys(clientAddress: string): [RateLimiterAbstract, string][] {
    const wider = widerIpv6Networks(clientAddress);
    const keys: [RateLimiterAbstract, string][] = [[this.byAddress, clientAddress]];
    if (wider.slash56 !== null) keys.push([this.byWiderNetwork.slash56, wider.slash56]);
    if (wider.slash48 !== null) keys.push([this.byWiderNetwork.slash48, wider.slash48]);
    return keys;
  }
}

/**
 * The /56 and /48 around an IPv6 network key such as `2001:db8:1:2::/64` (each only when the key is at least as
 * narrow); nulls for an IPv4 address or anything unreadable, which keep their one budget.
 */
export function widerIpv6Networks(clientAddress: string): {
  readonly slash56: string | null;
  readonly slash48: string | null;
} {
  const network = ipaddr.isValidCIDR(clientAddress) ? ipaddr.parseCIDR(clientAddress) : null;
  const around = (bits: number) => {
    if (!network || network[0].kind() !== 'ipv6' || network[1] < bits) return null;
    return `${ipaddr.IPv6.networkAddressFromCIDR(`${network[0].toString()}/${bits}`).toString()}/${bits}`;
  };
  return { slash56: around(56), slash48: around(48) };
}
