// The service: loadConfig() → buildContainer() → listen → graceful shutdown. Started by main.ts.
import { once } from 'node:events';
import { applyServerLimits, createHttpServer } from './adapters/http/http-server.js';
import { buildApplication } from './composition/application.js';
import { loadConfig } from './composition/config.js';
import { buildL2 } from './composition/compose.js';

const SHUTDOWN_GRACE_MS = 10_000;
/**
 * A request a client has finished sending may still sit in the kernel — its connection not yet accepted, or its
 * bytes not yet read: closing "idle" connections at once would reset it. This long is given for such requests to
 * be read (they then count as in flight).
 */
const DRAIN_MS = 250;
/**
 * A starved process wakes in the timers phase, before the poll phase that accepts connections and reads sockets:
 * after the drain timer, a few turns of the loop (accept, read, parse) run before anything is closed.
 */
const DRAIN_TURNS = 3;

/** Starts the service; resolves once it listens and has checked its transparency log. */
export async function serve(): Promise<void> {
  const config = loadConfig();
  const parts = await buildL2(config);
  // Connect, migrate, create indexes — before taking any request; a store that cannot be reached stops start-up.
  await parts.store.ready();
  const l2 = buildApplication(parts);
  await l2.startBackground();
  const server = createHttpServer(l2.listener);
  applyServerLimits(server, config.http);
  server.listen(config.port, config.host);

  // Let requests already sent be read, stop accepting, let requests in flight finish (at most 10 s), then stop
  // background work and close the store. Installed before "L2 listening" is logged: until a listener exists, the
  // kernel's default action for SIGTERM kills the process at once, and a supervisor that reads the line may
  // signal straight away.
  const shutdown = async (signal: string) => {
    l2.logger.info({ signal }, 'shutting down');
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
    for (let turn = 0; turn < DRAIN_TURNS; turn++) await new Promise((resolve) => setImmediate(resolve));
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await closed;
    clearTimeout(deadline);
    await l2.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  l2.logger.info({ port, publicUrl: config.publicUrl, store: config.store.kind }, 'L2 listening');
  // Start-up ends once the transparency log is checked (every stored entry read once): main.ts keeps the young
  // generation small until then, so that the check leaves no larger heap behind.
  await l2.transparencyChecked();
}
