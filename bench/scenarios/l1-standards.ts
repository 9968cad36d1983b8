// Scenario 10 (issue 26): what an L1 server pays for the standard shapes. Introspection (RFC 7662) is measured
// alternating with /auth/verify, the same token and load, so that each gets the same machine and the spread of the
// two verify runs says what noise is. Then the L1 kit's verify with its cache against the same L2 without it.
import {
  compareCache,
  tokensFromRealL2,
  type CacheComparison,
} from '../../packages/l1-kit/bench/compare-cache.js';
import type { Tokens } from '../http.js';
import { measure } from '../load-runner.js';
import type { LoadResult, LoadSpec } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';
import { verifySpec } from './verify.js';

export interface IntrospectionResults {
  /** Verify and introspection, run alternately: verify, introspection, verify, introspection. */
  readonly verify: readonly LoadResult[];
  readonly introspection: readonly LoadResult[];
}

export interface L1StandardsResults {
  readonly introspection: IntrospectionResults;
  readonly kitCache: CacheComparison;
}

/** The kit bench's rounds per client: each client verifies its own token this many times in a row. */
const KIT_ROUNDS = { quick: 100, full: 400 } as const;
/** The kit's cache must make verification at least this many times faster (issue 26). */
export const KIT_CACHE_FLOOR = 5;

/** The load of an L1 server introspecting the session token, as a form (what OAuth libraries send). */
function introspectionSpec(base: string, tokens: Tokens, seconds: number): LoadSpec {
  return {
    url: `${base}/oauth/introspect`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: tokens.session }).toString(),
    connections: CONNECTIONS.throughput,
    seconds,
  };
}

/** Checks that introspection answers active (it answers 200 either way, so the status proves nothing). */
async function expectActive(base: string, tokens: Tokens): Promise<void> {
  const spec = introspectionSpec(base, tokens, 0);
  const answer = await fetch(spec.url, { method: 'POST', headers: spec.headers, body: spec.body });
  const body = (await answer.json()) as { active?: boolean };
  if (body.active !== true) throw new Error(`introspection of the bench token: ${JSON.stringify(body)}`);
}

/**
 * `base` is where L2 listens, `publicUrl` its PUBLIC_URL: the kit checks L2's answers against the latter (their
 * `l2_server`), so it is configured with it and reaches L2 at `base`.
 */
export async function l1Standards(
  base: string,
  publicUrl: string,
  tokens: Tokens,
  profile: Profile,
): Promise<L1StandardsResults> {
  const seconds = profile.throughputSeconds;
  const verify: LoadResult[] = [];
  const introspection: LoadResult[] = [];
  await expectActive(base, tokens);
  for (let round = 0; round < 2; round++) {
    verify.push(await measure(verifySpec(base, tokens, seconds), profile.warmUpSeconds));
    introspection.push(await measure(introspectionSpec(base, tokens, seconds), profile.warmUpSeconds));
  }
  // Active before and after: a token only ever goes from active to inactive, so every answer between was active.
  await expectActive(base, tokens);

  // The L1 server the tokens are scoped to is never contacted: the kit only ever talks to L2 here.
  const kitTokens = await tokensFromRealL2(base, 'http://127.0.0.1:9');
  const reachL2 = (url: string | URL, init?: RequestInit) => {
    const href = String(url);
    return fetch(href.startsWith(publicUrl) ? base + href.slice(publicUrl.length) : href, init);
  };
  const kitCache = await compareCache(
    publicUrl,
    'http://127.0.0.1:9',
    kitTokens,
    KIT_ROUNDS[profile.name],
    reachL2,
  );
  return { introspection: { verify, introspection }, kitCache };
}
