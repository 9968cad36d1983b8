// The store's own figures on /metrics, where the store keeps a connection pool (PostgreSQL): how large the pool
// is, how many statements and transactions hold or wait for a connection, how long each operation took and how it
// ended, and how often connections closed. A store in the process (SQLite, memory) has no pool and adds none.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { StoreInstruments } from '../../application/ports/store-instruments.js';

/** Milliseconds to seconds: a statement on a loaded server, a transaction waiting for the log's row lock. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Registers the store's metrics on `registry`, fed by `instruments`. */
export function registerStoreMetrics(registry: Registry, instruments: StoreInstruments): void {
  new Gauge({
    name: 'l2_store_pool_size',
    help: 'Connections to the store this process may hold at once (STORE_POOL_SIZE, or the URL’s max).',
    registers: [registry],
    collect() {
      this.set(instruments.pool().size);
    },
  });
  new Gauge({
    name: 'l2_store_pool_busy',
    help: 'Store statements and transactions of this process running or waiting for a connection now, by kind; above l2_store_pool_size, requests queue for the pool.',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const { statements, transactions } = instruments.pool();
      this.set({ kind: 'statement' }, statements);
      this.set({ kind: 'transaction' }, transactions);
    },
  });
  const operations = new Histogram({
    name: 'l2_store_operations_seconds',
    help: 'Store operations of this process — a statement, or a whole transaction (its retries after a deadlock included) — by kind and outcome (ok; unavailable: the store could not answer, a 503; error: anything else), waiting for a connection included.',
    labelNames: ['kind', 'outcome'],
    buckets: BUCKETS,
    registers: [registry],
  });
  const closed = new Counter({
    name: 'l2_store_connections_closed_total',
    help: 'Connections to the store that closed: idle past STORE_IDLE_TIMEOUT_SECONDS, replaced after STORE_MAX_LIFETIME_SECONDS, or lost (a server restart or failover shows as a burst).',
    registers: [registry],
  });
  // Every series exists at 0 from the start, so that the first failure after a restart shows as an increase.
  const children = new Map<string, Histogram.Internal<'kind' | 'outcome'>>();
  for (const kind of ['statement', 'transaction'] as const)
    for (const outcome of ['ok', 'unavailable', 'error'] as const) {
      const child = operations.labels({ kind, outcome });
      children.set(`${kind}|${outcome}`, child);
      operations.zero({ kind, outcome });
    }
  instruments.onOperation(({ kind, outcome, seconds }) =>
    children.get(`${kind}|${outcome}`)?.observe(seconds),
  );
  instruments.onConnectionClosed(() => closed.inc());
}
