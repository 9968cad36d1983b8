import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { BcryptPasswordHasher } from '../adapters/crypto/bcrypt-password-hasher.js';
import type { ServiceMetrics } from '../adapters/metrics/service-metrics.js';
import type { Config } from './config.js';

/** A storm refuses thousands of checks a minute: one log line per this many ms says so, with the count. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/**
 * The one bcrypt hasher of the process, with its line bounded to BCRYPT_QUEUE_SECONDS of work (one job per core
 * at once), its load as the `l2_bcrypt_jobs` gauge, and its refusals counted (`l2_bcrypt_refused_total`) and
 * logged at `warn` — at most one line per ten seconds, however many are refused.
 */
export function passwordHasher(
  config: Config,
  metrics: ServiceMetrics,
  logger: () => Logger,
): BcryptPasswordHasher {
  let lastLogged = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  const hasher: BcryptPasswordHasher = new BcryptPasswordHasher(config.bcryptCost, availableParallelism(), {
    maxWaitSeconds: config.bcryptQueueSeconds,
    onRefused: ({ waiting, retryAfterSeconds }) => {
      metrics.bcryptRefused();
      unlogged++;
      const now = performance.now();
      if (now - lastLogged < REFUSAL_LOG_INTERVAL_MS) return;
      logger().warn(
        { refused: unlogged, waiting, retryAfterSeconds, maxWaitSeconds: config.bcryptQueueSeconds },
        'overloaded: password checks refused, the bcrypt line is full',
      );
      lastLogged = now;
      unlogged = 0;
    },
  });
  metrics.gauge(
    'l2_bcrypt_jobs',
    'Password hashes and checks running now (at most one per core) and waiting their turn.',
    ['state'],
    () => [
      [{ state: 'running' }, hasher.running],
      [{ state: 'waiting' }, hasher.waiting],
    ],
  );
  return hasher;
}
