// Scenario 3, verify: the same verify load on the empty store and on the seeded one (1M revocations), alternating
// A B A B with a fresh service each time, so that a neighbour's load on the shared machine falls on both alike.
import { signIn } from '../http.js';
import { measure } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import type { Profile } from '../profile.js';
import type { RunningServer } from '../servers.js';
import { verifySpec } from './verify.js';

export interface StoreSizeResults {
  readonly empty: LoadResult[];
  readonly seeded: LoadResult[];
}

/** Runs a service on a store for the time of `use` (see run.ts). */
export type Serve = <T>(store: 'empty' | 'seeded', use: (server: RunningServer) => Promise<T>) => Promise<T>;

export async function verifyByStoreSize(
  serve: Serve,
  client: { username: string; password: string },
  profile: Profile,
  rounds: number,
  /** Called on the seeded store's first service, after its verify run: the rest of scenario 3, and 4. */
  alsoOnSeeded: (server: RunningServer) => Promise<void>,
): Promise<StoreSizeResults> {
  const results: StoreSizeResults = { empty: [], seeded: [] };
  const verify = async (server: RunningServer) => {
    const tokens = await signIn(server.url, client, false);
    return measure(verifySpec(server.url, tokens, profile.throughputSeconds), profile.warmUpSeconds);
  };
  for (let round = 0; round < rounds; round++) {
    results.empty.push(await serve('empty', verify));
    await serve('seeded', async (server) => {
      results.seeded.push(await verify(server));
      if (round === 0) await alsoOnSeeded(server);
    });
  }
  return results;
}

export const meanRps = (runs: readonly LoadResult[]): number =>
  runs.reduce((sum, r) => sum + r.rps, 0) / runs.length;
