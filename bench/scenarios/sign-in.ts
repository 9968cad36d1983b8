// Scenario 12 (issue 28): signing in. Password logins at 16 concurrent clients with nothing else running — the
// account has no second factor, so this is the path every existing account takes, now with the read of its factors —
// read against the bcrypt ceiling; and passkey sign-ins at 16 concurrent clients, each a challenge and an ES256
// assertion, read against the machine's ECDSA P-256 verification ceiling.
import { setTimeout as sleep } from 'node:timers/promises';
import { runJsonChild } from '../child.js';
import type { LoadResult } from '../load-types.js';
import type { PasskeySignInResult } from '../passkey-sign-in-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

export interface SignInResults {
  readonly password: LoadResult;
  readonly passkey: PasskeySignInResult;
}

export async function signIns(
  base: string,
  publicUrl: string,
  credentials: { username: string; password: string },
  profile: Profile,
): Promise<SignInResults> {
  // The warm-up and the measurement, at the storm's concurrency. On a machine too busy for 16 bcrypt jobs at once the
  // hashing line refuses some with 503 (they count in no rate); the line reports them rather than stop the bench.
  const spec = {
    url: `${base}/auth/login`,
    method: 'POST' as const,
    body: JSON.stringify(credentials),
    connections: CONNECTIONS.loginStorm,
    seconds: profile.throughputSeconds,
  };
  await runJsonChild<LoadResult>('load.ts', { ...spec, seconds: profile.warmUpSeconds }, 120_000);
  await sleep(3000);
  const password = await runJsonChild<LoadResult>('load.ts', spec, (spec.seconds + 90) * 1000);
  // Sixteen logins may still be hashing when the load's client stops.
  await sleep(3000);
  const passkey = await runJsonChild<PasskeySignInResult>(
    'passkey-sign-in.ts',
    {
      base,
      origin: publicUrl,
      password: credentials.password,
      clients: CONNECTIONS.loginStorm,
      seconds: profile.throughputSeconds,
    },
    (profile.throughputSeconds + 180) * 1000,
  );
  return { password, passkey };
}
