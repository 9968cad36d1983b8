/**
 * The measurement behind `npm run bench -w @l2/l1-kit` and the repository's `npm run bench`: clients verifying their
 * own token over and over, with the kit's cache and without it, against the same L2.
 *
 * "With cache": `positiveTtlSeconds: 60` and a notice receiver mounted (the only way the kit caches valid answers).
 */
import { performance } from 'node:perf_hooks';
import { createL1Kit, type L1Kit, type L1KitOptions } from '../src/index.js';

export interface VerifyRate {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly verifications: number;
}

export interface CacheComparison {
  readonly clients: number;
  readonly rounds: number;
  readonly without: VerifyRate;
  readonly withCache: VerifyRate;
  /** withCache ÷ without. */
  readonly ratio: number;
}

/** One concurrent client per token, each verifying its own token `rounds` times in a row. */
async function run(kit: L1Kit, tokens: readonly string[], rounds: number): Promise<VerifyRate> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    tokens.map(async (token) => {
      for (let i = 0; i < rounds; i++) {
        const t = performance.now();
        await kit.verify(token);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    verifications: latencies.length,
  };
}

/**
 * Measures both, the plain kit first (after a short warm-up of connections and JIT). `fetch` reaches L2 when its
 * `PUBLIC_URL` (`l2`, which the kit checks answers against) is not where it listens.
 */
export async function compareCache(
  l2: string,
  l1: string,
  tokens: readonly string[],
  rounds: number,
  fetch?: L1KitOptions['fetch'],
): Promise<CacheComparison> {
  const reach = fetch === undefined ? {} : { fetch };
  const plain = createL1Kit({ l2, self: l1, ...reach });
  const cached = createL1Kit({ l2, self: l1, cache: { positiveTtlSeconds: 60 }, ...reach });
  const receiver = cached.noticeReceiver();
  try {
    await run(plain, tokens.slice(0, 2), Math.min(rounds, 50));
    const without = await run(plain, tokens, rounds);
    const withCache = await run(cached, tokens, rounds);
    return {
      clients: tokens.length,
      rounds,
      without,
      withCache,
      ratio: withCache.perSecond / without.perSecond,
    };
  } finally {
    receiver.close();
  }
}

/** Registers a user at a real L2 and attaches `l1` `count` times: tokens scoped to it (L2 keeps 5 live per server). */
export async function tokensFromRealL2(l2: string, l1: string, count = 5): Promise<string[]> {
  const username = `bench_${Date.now().toString(36)}`;
  const password = `bench-${Math.random().toString(36).slice(2)}-password`;
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${l2}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { access_token: string };
  };
  const session = (await post('/auth/register', { username, password })).access_token;
  const tokens: string[] = [];
  for (let i = 0; i < count; i++)
    tokens.push((await post('/renderers/attach', { l1_server: l1 }, session)).access_token);
  return tokens;
}
