// The machine's ceilings for the two expensive operations, measured in this run: cores × one core's rate.
import { availableParallelism } from 'node:os';
import type { Ceiling, CeilingSample, CeilingSpec } from './ceiling-types.js';
import { runJsonChild } from './child.js';

/** Runs on an otherwise idle machine (before any server starts), one operation at a time on one core. */
export async function measureCeiling(spec: CeilingSpec): Promise<Ceiling> {
  const sample = await runJsonChild<CeilingSample>('ceiling-worker.ts', spec, (spec.seconds + 60) * 1000);
  const cores = availableParallelism();
  return { ...sample, cores, ceilingPerSecond: sample.perSecond * cores };
}
