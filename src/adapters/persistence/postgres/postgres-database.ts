// The connection pool to one PostgreSQL database (postgres.js), made on first use: the driver library is loaded
// then, never when another store is chosen. Every statement and transaction of the adapters goes through here, so
// that a server that cannot answer is a StoreUnavailableError (a 503, never a 500) whatever the port, its password
// appears in no message, and the pool's figures are counted in one place.
import type { Sql, TransactionSql } from 'postgres';
import { StoreUnavailableError } from '../../../application/ports/errors.js';
import type { StoreInstruments, StoreOperation } from '../../../application/ports/store-instruments.js';
import type { StoreSettings } from '../store-driver.js';
import { driverOptions, driverUrl, poolSizeInEffect } from './postgres-driver-options.js';
import { isRetryable, meansReadOnlyServer, meansStoreUnavailable, oneLine } from './postgres-errors.js';
import type { Queryable, Rows } from './postgres-sql.js';
import { redact, whereIs, type PostgresLocation } from './postgres-url.js';

/** A transaction that lost a race (a deadlock, a serialization failure) runs again, whole, this many times at most. */
const MAX_ATTEMPTS = 5;

/** Ends the transaction it is called in, writing nothing, and makes `transaction` resolve to `outcome`. */
export type Refuse<T> = (outcome: T) => never;

/** Thrown inside a transaction to roll it back and answer an outcome; never a driver error. */
class Refusal extends Error {
  constructor(
    readonly outcome: unknown,
    readonly owner: object,
  ) {
    super('The transaction was refused on purpose.');
    this.name = 'Refusal';
  }
}

/** A connection of the pool kept for one reader: statements, and cursors that read a result batch by batch. */
export interface ReservedConnection extends Queryable {
  cursor<Row>(text: string, params: readonly unknown[], rows: number): AsyncIterable<readonly Row[]>;
  release(): void;
}

const queryable = (sql: Sql | TransactionSql): Queryable => ({
  query: <Row>(text: string, params: readonly unknown[] = []) =>
    sql.unsafe(text, params as never[], { prepare: true }) as unknown as Promise<Rows<Row>>,
});

export class PostgresDatabase implements Queryable {
  private pool: Sql | null = null;
  private opening: Promise<Sql> | null = null;
  private closed = false;
  private readonly running = { statement: 0, transaction: 0 };
  private readonly operationListeners: ((operation: StoreOperation) => void)[] = [];
  private readonly closeListeners: (() => void)[] = [];
  /** The pool each failure came from: only a failure of the current pool may replace it. */
  private readonly failedIn = new WeakMap<object, Sql>();

  constructor(
    private readonly url: string,
    readonly location: PostgresLocation,
    private readonly settings: StoreSettings,
  ) {}

  /** The hosts and database, without credentials: what messages name. */
  get where(): string {
    return whereIs(this.location);
  }

  readonly instruments: StoreInstruments = {
    pool: () => ({
      size: poolSizeInEffect(this.location, this.settings),
      statements: this.running.statement,
      transactions: this.running.transaction,
    }),
    onOperation: (listener) => void this.operationListeners.push(listener),
    onConnectionClosed: (listener) => void this.closeListeners.push(listener),
  };

  /** One statement, in a transaction of its own. */
  async query<Row = Record<string, unknown>>(
    text: string,
    params: readonly unknown[] = [],
  ): Promise<Rows<Row>> {
    return this.timed('statement', async () => {
      const sql = await this.connection();
      return this.from(sql, queryable(sql).query<Row>(text, params));
    });
  }

  /**
   * Runs `work` in one transaction (READ COMMITTED: each statement sees what committed before it; the adapters take
   * the row locks they rely on) and resolves to what it returned. `work` may run again, whole, after a deadlock or
   * a serialization failure, so it must touch nothing outside `tx`. `refuse(outcome)` rolls back and answers
   * `outcome`. `once`: never run again — for work that consumes what it cannot read twice (the import's stream).
   */
  async transaction<T>(
    work: (tx: Queryable, refuse: Refuse<T>) => Promise<T>,
    options: { readonly once?: boolean } = {},
  ): Promise<T> {
    const owner = {};
    const refuse: Refuse<T> = (outcome) => {
      throw new Refusal(outcome, owner);
    };
    return this.timed('transaction', async () => {
      for (let attempt = 1; ; attempt++) {
        const sql = await this.connection();
        try {
          return (await this.from(
            sql,
            sql.begin((tx) => work(queryable(tx), refuse)),
          )) as T;
        } catch (error) {
          if (error instanceof Refusal && error.owner === owner) return error.outcome as T;
          if (options.once === true || !isRetryable(error) || attempt >= MAX_ATTEMPTS) throw error;
        }
      }
    });
  }

  /**
   * A connection kept for one caller until it releases it (the export's snapshot transaction spans many reads, and
   * yields between them).
   */
  async reserve(): Promise<ReservedConnection> {
    let reserved: Awaited<ReturnType<Sql['reserve']>>;
    const sql = await this.connection();
    try {
      reserved = await this.from(sql, sql.reserve());
    } catch (error) {
      throw this.unavailable(error);
    }
    const mapped = <T>(promise: Promise<T>): Promise<T> =>
      this.from(sql, promise).catch((error: unknown) => {
        throw this.unavailable(error);
      });
    const unavailable = (error: unknown) => this.unavailable(this.failed(sql, error));
    return {
      query: <Row>(text: string, params: readonly unknown[] = []) =>
        mapped(queryable(reserved).query<Row>(text, params)),
      cursor: <Row>(text: string, params: readonly unknown[], rows: number) => ({
        async *[Symbol.asyncIterator]() {
          try {
            yield* reserved.unsafe(text, params as never[], { prepare: true }).cursor(rows) as AsyncIterable<
              Row[]
            >;
          } catch (error) {
            throw unavailable(error);
          }
        },
      }),
      release: () => reserved.release(),
    };
  }

  /** The pool, made (and the driver loaded) on first use. */
  async connection(): Promise<Sql> {
    if (this.closed) throw new StoreUnavailableError(`the PostgreSQL store at ${this.where} is closed`);
    if (this.pool) return this.pool;
    this.opening ??= this.open().finally(() => (this.opening = null));
    return this.opening;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool ?? (await this.opening?.catch(() => null)) ?? null;
    this.pool = null;
    await pool?.end({ timeout: 5 });
  }

  /** A failure of the driver as the adapters see it: a StoreUnavailableError when the server cannot answer. */
  unavailable(error: unknown, what = 'The PostgreSQL store cannot answer'): unknown {
    if (error instanceof StoreUnavailableError || !meansStoreUnavailable(error)) return error;
    if (meansReadOnlyServer(error)) this.replacePool(this.failedIn.get(error as object));
    return new StoreUnavailableError(`${what}: ${redact(oneLine(error), this.location)}`, { cause: error });
  }

  private async open(): Promise<Sql> {
    const { default: postgres } = await import('postgres');
    if (this.closed) throw new StoreUnavailableError(`the PostgreSQL store at ${this.where} is closed`);
    try {
      this.pool = postgres(
        driverUrl(this.url, this.location),
        driverOptions(this.location, this.settings, () => this.closeListeners.forEach((l) => l())),
      );
    } catch (error) {
      // The driver's own reading of the URL failed: say why without the URL (it holds the password).
      throw new StoreUnavailableError(
        `cannot use the PostgreSQL URL for ${this.where}: ${redact(oneLine(error), this.location)}`,
      );
    }
    return this.pool;
  }

  /**
   * Connections to a server that no longer takes writes (a primary demoted in a failover) stay open and keep
   * failing; a new pool connects again, to the host the URL's target_session_attrs chooses. Only when `failing` is
   * still the pool: a late refusal from a pool already replaced must not end its healthy successor.
   */
  private replacePool(failing: Sql | undefined): void {
    if (failing === undefined || failing !== this.pool) return;
    this.pool = null;
    void failing.end({ timeout: 5 }).catch(() => undefined);
  }

  /** `promise`, its failure marked as coming from `pool`. */
  private from<T>(pool: Sql, promise: Promise<T>): Promise<T> {
    return promise.catch((error: unknown) => {
      throw this.failed(pool, error);
    });
  }

  private failed(pool: Sql, error: unknown): unknown {
    if (typeof error === 'object' && error !== null && !this.failedIn.has(error))
      this.failedIn.set(error, pool);
    return error;
  }

  private async timed<T>(kind: StoreOperation['kind'], operation: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    this.running[kind]++;
    let outcome: StoreOperation['outcome'] = 'error';
    try {
      const result = await operation();
      outcome = 'ok';
      return result;
    } catch (error) {
      const mapped = this.unavailable(error);
      if (mapped instanceof StoreUnavailableError) outcome = 'unavailable';
      throw mapped;
    } finally {
      this.running[kind]--;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const listener of this.operationListeners) listener({ kind, seconds, outcome });
    }
  }
}
