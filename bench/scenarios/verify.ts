// Scenario 1 (and the store-size half of 3): POST /auth/verify with a valid token, without and with l1_server.
import type { Tokens } from '../http.js';
import { measure } from '../load-runner.js';
import type { LoadResult, LoadSpec } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

export interface VerifyResults {
  readonly unscoped: LoadResult;
  readonly scoped: LoadResult;
}

/** The load of verifying the session token (no l1_server). */
export function verifySpec(base: string, tokens: Tokens, seconds: number): LoadSpec {
  return {
    url: `${base}/auth/verify`,
    method: 'POST',
    body: JSON.stringify({ token: tokens.session }),
    connections: CONNECTIONS.throughput,
    seconds,
  };
}

/** The load of an L1 server verifying a token scoped to it. */
export function scopedVerifySpec(base: string, tokens: Tokens, seconds: number): LoadSpec {
  return {
    ...verifySpec(base, tokens, seconds),
    body: JSON.stringify({ token: tokens.scoped, l1_server: tokens.l1Server }),
  };
}

export async function verifyHotPath(base: string, tokens: Tokens, profile: Profile): Promise<VerifyResults> {
  const unscoped = await measure(verifySpec(base, tokens, profile.throughputSeconds), profile.warmUpSeconds);
  const scoped = await measure(
    scopedVerifySpec(base, tokens, profile.throughputSeconds),
    profile.warmUpSeconds,
  );
  return { unscoped, scoped };
}
