// Runs load from a separate process (bench/load.ts), with an unmeasured warm-up first when asked.
import { setTimeout as sleep } from 'node:timers/promises';
import { runJsonChild } from './child.js';
import type { LoadResult, LoadSpec } from './load-types.js';

/**
 * Fails when the service answered but never with a 2xx (a broken scenario); warns when some answers were not
 * 2xx (they count in no rate) or when nothing completed at all (a machine too busy for the time given).
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const result = await runJsonChild<LoadResult>('load.ts', spec, (spec.seconds + 90) * 1000);
  const what = `${spec.method ?? 'GET'} ${new URL(spec.url).pathname}`;
  const codes = JSON.stringify(result.statusCodes);
  if (result.ok === 0 && result.non2xx > 0) throw new Error(`${what}: no 2xx answer (${codes})`);
  if (result.ok === 0 || result.non2xx > 0 || result.errors > 0) {
    console.warn(
      `  warning: ${what}: ${result.ok} 2xx, ${result.non2xx} other, ${result.errors} errors (${codes})`,
    );
  }
  return result;
}

/**
 * A short unmeasured run at the same settings, then the measured one. `settleMs` is the pause between them: the
 * service may still be working through requests the warm-up left in flight (seconds' worth for bcrypt or key
 * generation), and the measurement must not start with that backlog.
 */
export async function measure(spec: LoadSpec, warmUpSeconds: number, settleMs = 250): Promise<LoadResult> {
  if (warmUpSeconds > 0) await runLoad({ ...spec, seconds: warmUpSeconds });
  await sleep(settleMs);
  return runLoad(spec);
}
