/**
 * Bench: the kit's verify() with its cache against the same L2 without it.
 *
 *   npm run bench -w @l2/l1-kit                    # against the stand-in L2 (in this process)
 *   L2_URL=http://localhost:8200 L1_URL=http://localhost:8300 npm run bench -w @l2/l1-kit
 *                                                  # against a real L2: registers a user, attaches L1_URL 5 times
 *
 * Workload: one concurrent client per token, each verifying its own token ROUNDS times in a row — a signed-in user
 * clicking around. "With cache": `positiveTtlSeconds: 60` and a notice receiver mounted (the only way the kit caches
 * valid answers). Exits 1 when the cache is not at least 5 × faster.
 */
import { performance } from 'node:perf_hooks';
import { createL1Kit, type L1Kit } from '../src/index.js';
import { StandInL2 } from '../test/support/stand-in-l2.js';

const ROUNDS = Number(process.env.ROUNDS ?? 200);

async function tokensFromRealL2(l2: string, l1: string): Promise<string[]> {
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
  for (let i = 0; i < 5; i++)
    tokens.push((await post('/renderers/attach', { l1_server: l1 }, session)).access_token);
  return tokens;
}

async function run(kit: L1Kit, tokens: string[]): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    tokens.map(async (token) => {
      for (let i = 0; i < ROUNDS; i++) {
        const t = performance.now();
        await kit.verify(token);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

const standIn = process.env.L2_URL ? undefined : await new StandInL2().start();
const l2 = process.env.L2_URL ?? standIn!.url;
const l1 = process.env.L1_URL ?? 'http://render.bench';
const tokens = standIn
  ? await Promise.all(Array.from({ length: 20 }, (_, i) => standIn.issue(`user${i}`, { l1 })))
  : await tokensFromRealL2(l2, l1);

const plain = createL1Kit({ l2, self: l1 });
const cached = createL1Kit({ l2, self: l1, cache: { positiveTtlSeconds: 60 } });
const receiver = cached.noticeReceiver();

await run(plain, tokens.slice(0, 2)); // warm up connections and JIT
const without = await run(plain, tokens);
const requestsBefore = standIn?.counts.verify;
const withCache = await run(cached, tokens);
const requestsWithCache = standIn ? standIn.counts.verify - requestsBefore! : undefined;
receiver.close();
await standIn?.stop();

const ratio = withCache.perSecond / without.perSecond;
const fmt = (r: { perSecond: number; p50: number; p99: number }) =>
  `${Math.round(r.perSecond)} verifications/s, p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms`;
console.log(
  `L2: ${standIn ? 'stand-in' : l2}; ${tokens.length} clients × ${ROUNDS} verifications of their own token`,
);
console.log(`without cache: ${fmt(without)}`);
console.log(
  `with cache:    ${fmt(withCache)}${requestsWithCache === undefined ? '' : ` (${requestsWithCache} requests to L2)`}`,
);
console.log(`ratio: ${ratio.toFixed(1)} × (required: >= 5 ×)`);
if (ratio < 5) process.exitCode = 1;
