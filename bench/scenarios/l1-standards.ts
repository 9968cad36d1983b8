// Scenario 10 (issue 26): what an L1 server pays for the standard shapes. Introspection (RFC 7662) is measured
// alternating with /auth/verify, the same token and load, so that each gets the same machine and the spread of the
// runs of one kind says what noise is. Beside them (issue 36), introspection as a stock resource server sends it
// (mod_oauth2): a scoped token with `client_id` and no `resource` (API.md §2.5: the client is the audience). Then the
// L1 kit's verify with its cache against the same L2 without it.
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
  /** Verify, introspection and introspection by client_id, run in turn, each round in another order. */
  readonly verify: readonly LoadResult[];
  /** Today's line: the session token, no audience. */
  readonly introspection: readonly LoadResult[];
  /** The token scoped to the bench's L1 server, introspected with its `client_id` and no `resource` (issue 36). */
  readonly byClientId?: readonly LoadResult[];
  /**
   * The same scoped token introspected with `resource` — today's request for a scoped token: what separates the
   * client_id rule's own cost from the scoped token's check (its attachment), which the session line does not pay.
   */
  readonly byResource?: readonly LoadResult[];
}

export interface L1StandardsResults {
  readonly introspection: IntrospectionResults;
  readonly kitCache: CacheComparison;
}

/** The kit bench's rounds per client: each client verifies its own token this many times in a row. */
const KIT_ROUNDS = { quick: 100, full: 400 } as const;
/** The kit's cache must make verification at least this many times faster (issue 26). */
export const KIT_CACHE_FLOOR = 5;

/** Rounds of the four lines (verify, and introspection three ways), the order rotated every round. */
const INTROSPECTION_ROUNDS = 3;

/** The fields of an introspection request, as a form (what OAuth libraries send). */
type IntrospectionForm = Record<string, string>;

/** An L1 server introspecting the session token (today's line). */
const sessionForm = (tokens: Tokens): IntrospectionForm => ({ token: tokens.session });

/**
 * A stock resource server introspecting the token scoped to it: `token`, `token_type_hint` and its `client_id`, no
 * `resource` — the client is the audience (API.md §2.5); the client is an L1 server URL, so no document is fetched.
 */
const clientIdForm = (tokens: Tokens): IntrospectionForm => ({
  token: tokens.scoped,
  token_type_hint: 'access_token',
  client_id: tokens.l1Server,
});

/** An L1 server introspecting the token scoped to it, as §2.2 has it: `resource` names the audience. */
const resourceForm = (tokens: Tokens): IntrospectionForm => ({
  token: tokens.scoped,
  token_type_hint: 'access_token',
  resource: tokens.l1Server,
});

function introspectionSpec(base: string, form: IntrospectionForm, seconds: number): LoadSpec {
  return {
    url: `${base}/oauth/introspect`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    connections: CONNECTIONS.throughput,
    seconds,
  };
}

/** Checks that introspection answers active (it answers 200 either way, so the status proves nothing). */
async function expectActive(base: string, form: IntrospectionForm): Promise<void> {
  const spec = introspectionSpec(base, form, 0);
  const answer = await fetch(spec.url, { method: 'POST', headers: spec.headers, body: spec.body });
  const body = (await answer.json()) as { active?: boolean };
  if (body.active !== true) throw new Error(`introspection of the bench token: ${JSON.stringify(body)}`);
}

/**
 * The four lines in turn, rotated every round (V I C R, I C R V, C R V I) so that none always comes first. Active
 * before and after: a token only ever goes from active to inactive, so every answer between was active.
 */
export async function introspectionLines(
  base: string,
  tokens: Tokens,
  profile: Profile,
): Promise<IntrospectionResults> {
  const seconds = profile.throughputSeconds;
  const lines = {
    verify: verifySpec(base, tokens, seconds),
    introspection: introspectionSpec(base, sessionForm(tokens), seconds),
    byClientId: introspectionSpec(base, clientIdForm(tokens), seconds),
    byResource: introspectionSpec(base, resourceForm(tokens), seconds),
  };
  const runs: Record<keyof typeof lines, LoadResult[]> = {
    verify: [],
    introspection: [],
    byClientId: [],
    byResource: [],
  };
  const order = Object.keys(lines) as (keyof typeof lines)[];
  const checkActive = () =>
    Promise.all([sessionForm, clientIdForm, resourceForm].map((form) => expectActive(base, form(tokens))));
  await checkActive();
  for (let round = 0; round < INTROSPECTION_ROUNDS; round++) {
    for (let place = 0; place < order.length; place++) {
      const kind = order[(round + place) % order.length]!;
      runs[kind].push(await measure(lines[kind], profile.warmUpSeconds));
    }
  }
  await checkActive();
  return runs;
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
  const introspection = await introspectionLines(base, tokens, profile);

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
  return { introspection, kitCache };
}

export interface NoiseReading {
  /** Mean rps of introspection by client_id ÷ mean rps of today's introspection. */
  readonly ratio: number;
  /** Mean rps of introspection by client_id ÷ mean rps of the same scoped token introspected with `resource`. */
  readonly ratioToResource: number | null;
  /** The widest spread of one kind's own runs, (max − min) ÷ mean, over verify and the introspections. */
  readonly noise: number;
  /** Whether the ratio is within that spread of 1: |ratio − 1| ≤ noise. */
  readonly withinNoise: boolean;
  /** The same for the ratio to the `resource` line. */
  readonly withinNoiseOfResource: boolean | null;
}

/** Introspection by client_id read against today's line, with the runs' own spread as the noise (issue 36). */
export function clientIdAgainstToday(results: IntrospectionResults): NoiseReading | null {
  const { verify, introspection, byClientId, byResource } = results;
  if (!byClientId?.length || !introspection.length) return null;
  const mean = (runs: readonly LoadResult[]) => runs.reduce((a, r) => a + r.rps, 0) / runs.length;
  const spread = (runs: readonly LoadResult[]) => {
    const rates = runs.map((r) => r.rps);
    return (Math.max(...rates) - Math.min(...rates)) / mean(runs);
  };
  const ratio = mean(byClientId) / mean(introspection);
  const ratioToResource = byResource?.length ? mean(byClientId) / mean(byResource) : null;
  const noise = Math.max(
    ...[verify, introspection, byClientId, byResource ?? []].filter((r) => r.length > 0).map(spread),
  );
  return {
    ratio,
    noise,
    withinNoise: Math.abs(ratio - 1) <= noise,
    ratioToResource,
    withinNoiseOfResource: ratioToResource === null ? null : Math.abs(ratioToResource - 1) <= noise,
  };
}
