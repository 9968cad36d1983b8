/**
 * Bench: the kit's verify() with its cache against the same L2 without it (compare-cache.ts).
 *
 *   npm run bench -w @l2/l1-kit                    # against the stand-in L2 (in this process)
 *   L2_URL=http://localhost:8200 L1_URL=http://localhost:8300 npm run bench -w @l2/l1-kit
 *                                                  # against a real L2: registers a user, attaches L1_URL 5 times
 *
 * The repository's `npm run bench` runs the same comparison against the real L2 it starts. Exits 1 when the cache is
 * not at least 5 × faster.
 */
import { StandInL2 } from '../test/support/stand-in-l2.js';
import { compareCache, tokensFromRealL2, type VerifyRate } from './compare-cache.js';

const ROUNDS = Number(process.env.ROUNDS ?? 200);

const standIn = process.env.L2_URL ? undefined : await new StandInL2().start();
const l2 = process.env.L2_URL ?? standIn!.url;
const l1 = process.env.L1_URL ?? 'http://render.bench';
const tokens = standIn
  ? await Promise.all(Array.from({ length: 20 }, (_, i) => standIn.issue(`user${i}`, { l1 })))
  : await tokensFromRealL2(l2, l1);

const before = standIn?.counts.verify;
const measured = await compareCache(l2, l1, tokens, ROUNDS);
const requests = standIn ? standIn.counts.verify - before! : undefined;
await standIn?.stop();

const fmt = (r: VerifyRate) =>
  `${Math.round(r.perSecond)} verifications/s, p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms`;
console.log(
  `L2: ${standIn ? 'stand-in' : l2}; ${tokens.length} clients × ${ROUNDS} verifications of their own token`,
);
console.log(`without cache: ${fmt(measured.without)}`);
console.log(`with cache:    ${fmt(measured.withCache)}`);
if (requests !== undefined)
  console.log(`requests to the stand-in L2 for both runs and the warm-up: ${requests}`);
console.log(`ratio: ${measured.ratio.toFixed(1)} × (required: >= 5 ×)`);
if (measured.ratio < 5) process.exitCode = 1;
