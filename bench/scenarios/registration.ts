// Scenario 5: registrations per second under 8 concurrent clients, each request a new username.
import { runLoad } from '../load-runner.js';
import type { LoadResult } from '../load-types.js';
import { CONNECTIONS, type Profile } from '../profile.js';

/**
 * No warm-up run: a registration is bcrypt and key generation on the thread pool, nothing a JIT speeds up, and
 * a warm-up would leave seconds of registrations in flight at the start of the measurement. It runs after the
 * login storm has drained (see login-storm.ts).
 */
export function registrations(base: string, password: string, profile: Profile): Promise<LoadResult> {
  return runLoad({
    url: `${base}/auth/register`,
    method: 'POST',
    connections: CONNECTIONS.registration,
    seconds: profile.registrationSeconds,
    uniqueRegistration: true,
    password,
  });
}
