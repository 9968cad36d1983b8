import ipaddr from 'ipaddr.js';
import type { IncomingMessage } from 'node:http';

/** Every address that cannot be read shares one budget, rather than each spelling getting its own. */
const UNREADABLE = 'unreadable';

/** `1.2.3.4:5678` and `[2001:db8::1]:80` (as some proxies write X-Forwarded-For) without the port. */
function withoutPort(raw: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(raw);
  if (bracketed?.[1]) return bracketed[1];
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(raw);
  return v4WithPort?.[1] ?? raw;
}

/** A request as the two functions below read it: Koa's context, or anything else that knows the address. */
interface WithAddress {
  /** The client's address as Koa gives it (`ctx.ip`: behind a trusted proxy, the hop that proxy appended). */
  readonly ip: string;
}

/**
 * The address the per-address limits count against. Behind a trusted proxy it is the address that proxy saw
 * (the right-most X-Forwarded-For entry: Koa is built with maxIpsCount 1), never a left-most one the client
 * wrote itself. One IPv6 subscriber holds a whole prefix, so IPv6 addresses count per `/ipv6Prefix` (a /64 for
 * logins; registrations, rarer and costlier, per /48 — a site); an IPv4-mapped IPv6 address counts as its IPv4
 * address.
 */
export function clientAddress(ctx: WithAddress, ipv6Prefix: 48 | 64 = 64): string {
  return addressKey(ctx.ip, ipv6Prefix);
}

/**
 * The address Koa gives as `ctx.ip` (built with maxIpsCount 1), read from the raw request: behind a trusted proxy
 * the right-most X-Forwarded-For entry, else the socket's peer. For the hot paths, which count like the routes.
 */
export function requestIp(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const header = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
  // As Koa splits it: on commas, each entry trimmed, the last one taken.
  const last = header ? header.split(',').at(-1)?.trim() : undefined;
  return last || req.socket.remoteAddress || '';
}

/** `ip` as the key the per-address limits count against (see clientAddress). */
export function addressKey(ip: string, ipv6Prefix: 48 | 64 = 64): string {
  const raw = withoutPort(ip);
  if (!ipaddr.isValid(raw)) return UNREADABLE;
  const parsed = ipaddr.process(raw);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${ipv6Prefix}`);
  return `${prefix.toString()}/${ipv6Prefix}`;
}

/**
 * The request's own address as the limits' proxy rule reads it (no port, an IPv4-mapped IPv6 address as its IPv4
 * address), whole: what an account's history says a change came from.
 */
export function requestAddress(ctx: WithAddress): string {
  const raw = withoutPort(ctx.ip);
  return ipaddr.isValid(raw) ? ipaddr.process(raw).toString() : UNREADABLE;
}
