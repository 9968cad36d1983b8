// Scenario 2: the verify load again while 16 clients log in back to back for the whole measurement.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Tokens } from '../http.js';
import { runLoad } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';
import { verifySpec } from './verify.js';

export interface StormResults {
  readonly verify: LoadResult;
  readonly logins: LoadResult;
}

/**
 * The storm starts first and ends last (a margin on each side), so the whole verify measurement runs under it.
 * The verify path is warm already: this runs right after the hot-path scenario on the same service.
 */
export async function verifyUnderLoginStorm(
  base: string,
  tokens: Tokens,
  credentials: { username: string; password: string },
  profile: Profile,
): Promise<StormResults> {
  const margin = Math.max(1, profile.warmUpSeconds);
  const storm = runLoad({
    url: `${base}/auth/login`,
    method: 'POST',
    body: JSON.stringify(credentials),
    connections: CONNECTIONS.loginStorm,
    seconds: profile.throughputSeconds + 2 * margin,
  });
  await sleep(margin * 1000);
  const verify = await runLoad(verifySpec(base, tokens, profile.throughputSeconds));
  const logins = await storm;
  // Sixteen logins may still be hashing when the storm's client stops: let them drain before the next scenario.
  await sleep(3000);
  return { verify, logins };
}
