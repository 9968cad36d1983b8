// What a store that keeps a connection pool says about it, for /metrics: the persistence adapter that has a pool
// reports through it, the metrics adapter reads it (neither knows the other).

/** One store operation as the store saw it: a statement or a whole transaction, how long it took, how it ended. */
export interface StoreOperation {
  readonly kind: 'statement' | 'transaction';
  readonly seconds: number;
  /** `ok`; `unavailable` (the store could not answer: a 503); `error` (anything else, a refused write included). */
  readonly outcome: 'ok' | 'unavailable' | 'error';
}

/** What a store with a connection pool says about it, for /metrics. */
export interface StoreInstruments {
  /** The pool's size, and the statements and transactions running or waiting for a connection now. */
  pool(): { readonly size: number; readonly statements: number; readonly transactions: number };
  /** Calls `listener` after every operation; once per listener. */
  onOperation(listener: (operation: StoreOperation) => void): void;
  /** Calls `listener` each time a connection is closed (idle, replaced, lost). */
  onConnectionClosed(listener: () => void): void;
}
