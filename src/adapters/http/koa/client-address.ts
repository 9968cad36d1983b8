import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

/**
 * The address the per-address limits count against. Behind a trusted proxy it is the address that proxy saw
 * (the right-most X-Forwarded-For entry: Koa is built with maxIpsCount 1), never the left-most one the client
 * wrote itself. One IPv6 subscriber usually holds a whole /64, so IPv6 addresses count per /64; an IPv4-mapped
 * IPv6 address counts as its IPv4 address.
 */
export function clientAddress(ctx: Context): string {
  const raw = ctx.ip;
  if (!ipaddr.isValid(raw)) return raw;
  const parsed = ipaddr.process(raw);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`);
  return `${prefix.toString()}/64`;
}
