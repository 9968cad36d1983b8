// The test tiers (`npm run test:<tier>`; `npm test` runs them all, in this order). Each test file belongs to exactly
// one tier of test/tiers.json, by the most specific folder or file that holds it (test/architecture.test.ts checks it): a developer runs
// the tier of what they changed, CI runs everything.
//
//   node scripts/test-tiers.js unit|http|browser|slow|all [mocha options…]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Tier → the folders and files it runs, and whether its files may run in parallel worker processes. */
export const TIERS = JSON.parse(readFileSync(new URL('../test/tiers.json', import.meta.url), 'utf8'));

/** The mocha arguments of a tier: its paths as globs of test files, minus the files a more specific tier claims. */
function mochaArguments(tier) {
  const { paths, parallel } = TIERS[tier];
  const specs = paths.map((path) => (path.endsWith('.ts') ? path : `${path}/**/*.test.ts`));
  const ignores = Object.entries(TIERS)
    .filter(([other]) => other !== tier)
    .flatMap(([, { paths: others }]) => others.filter((o) => paths.some((p) => o.startsWith(`${p}/`))))
    .map((path) => (path.endsWith('.ts') ? path : `${path}/**`));
  const jobs = Math.max(2, Math.min(4, cpus().length));
  return [
    ...specs,
    ...ignores.flatMap((path) => ['--ignore', path]),
    ...(parallel ? ['--parallel', '--jobs', String(jobs)] : []),
  ];
}

function run(tier, extra) {
  process.stdout.write(`\n== test tier: ${tier}\n`);
  const result = spawnSync('npx', ['mocha', ...mochaArguments(tier), ...extra], { stdio: 'inherit' });
  return result.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [which, ...extra] = process.argv.slice(2);
  const tiers = which === 'all' ? Object.keys(TIERS) : [which];
  if (!tiers.every((tier) => tier in TIERS)) {
    console.error(`usage: node scripts/test-tiers.js ${Object.keys(TIERS).join('|')}|all [mocha options]`);
    process.exit(2);
  }
  // Every tier runs even when one fails, so that one run reports everything; the exit status is the first failure's.
  const statuses = tiers.map((tier) => run(tier, extra));
  const failed = tiers.filter((_, i) => statuses[i] !== 0);
  if (failed.length > 0) console.error(`\nFailed tiers: ${failed.join(', ')}`);
  process.exit(statuses.find((status) => status !== 0) ?? 0);
}
