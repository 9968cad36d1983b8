import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { BcryptPasswordHasher, type RefusalReason } from '../adapters/crypto/bcrypt-password-hasher.js';
import type { ServiceMetrics } from '../adapters/metrics/service-metrics.js';
import type { Config } from './config.js';

/** A storm refuses thousands of checks a minute: one log line per this many ms says so, with the count. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/** Calls `log` with how many events it was told of since its last call, at most once per REFUSAL_LOG_INTERVAL_MS. */
function summarised<Event extends string>(log: (counts: Record<Event, number>) => void, events: Event[]) {
  let lastLogged = Number.NEGATIVE_INFINITY;
  const zero = () => Object.fromEntries(events.map((event) => [event, 0])) as Record<Event, number>;
  let counts = zero();
  return (event: Event) => {
    counts[event]++;
    const now = performance.now();
    if (now - lastLogged < REFUSAL_LOG_INTERVAL_MS) return;
    log(counts);
    lastLogged = now;
    counts = zero();
  };
}

/**
 * The one bcrypt hasher of the process, with its line bounded to BCRYPT_QUEUE_SECONDS of work (one job per core
 * at once) and to 2 waiting checks per client, its load as the `l2_bcrypt_jobs` gauge, its refusals counted
 * (`l2_bcrypt_refused_total`) and logged at `warn`, and its unknown-username checks answered without a compare
 * counted (`l2_bcrypt_shed_total`) and logged at `info` — each at most one line per ten seconds, however many.
 */
export function passwordHasher(
  config: Config,
  metrics: ServiceMetrics,
  logger: () => Logger,
): BcryptPasswordHasher {
  let waitingNow = 0;
  let retryAfterNow = 0;
  const logRefusals = summarised<RefusalReason>(
    ({ line_full, client_share }) =>
      logger().warn(
        {
          refused: line_full + client_share,
          lineFull: line_full,
          clientShare: client_share,
          waiting: waitingNow,
          retryAfterSeconds: retryAfterNow,
          maxWaitSeconds: config.bcryptQueueSeconds,
        },
        'overloaded: password checks refused, the bcrypt line is full (clientShare: of the client holding most of it)',
      ),
    ['line_full', 'client_share'],
  );
  const logShed = summarised<'shed'>(
    ({ shed }) =>
      logger().info(
        { shed },
        "busy: unknown-username password checks answered without bcrypt, after a compare's usual time",
      ),
    ['shed'],
  );
  const hasher: BcryptPasswordHasher = new BcryptPasswordHasher(config.bcryptCost, availableParallelism(), {
    maxWaitSeconds: config.bcryptQueueSeconds,
    onRefused: ({ reason, waiting, retryAfterSeconds }) => {
      metrics.bcryptRefused();
      waitingNow = waiting;
      retryAfterNow = retryAfterSeconds;
      logRefusals(reason);
    },
    onShed: () => {
      metrics.bcryptShed();
      logShed('shed');
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
