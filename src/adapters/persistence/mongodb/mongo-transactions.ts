import type { ClientSession, Collection, MongoClient, TransactionOptions } from 'mongodb';
import type { CounterDocument, CounterName } from './mongo-schema.js';

/**
 * Snapshot reads and majority-acknowledged commits: every read of the transaction sees one point in time, and a
 * document another transaction changed since then makes ours fail with a WriteConflict (retried as a whole).
 */
const TRANSACTION_OPTIONS: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};

/** Thrown inside a transaction to end it with nothing written and answer an outcome; never a MongoError. */
class Refusal extends Error {
  constructor(
    readonly outcome: unknown,
    readonly owner: object,
  ) {
    super('The transaction was refused on purpose.');
    this.name = 'Refusal';
  }
}

/** Ends the transaction it is called in, writing nothing, and makes {@link transaction} resolve to `outcome`. */
export type Refuse<T> = (outcome: T) => never;

/**
 * Runs `work` in one transaction and resolves to what its last, committed run returned (driver 6's
 * `withTransaction` returns the callback's value; 5.x returned the commit's reply). The driver runs `work` again,
 * whole, after an error labelled TransientTransactionError (a WriteConflict with another transaction, a primary
 * stepping down), and retries only the commit after UnknownTransactionCommitResult — for up to 120 s, then the error
 * is thrown (and storeCall makes it a StoreUnavailableError). So `work` may run several times: it must pass
 * `session` to every operation, await each one in turn (no Promise.all: operations in one transaction must not run
 * in parallel), touch nothing outside the session, and never swallow a MongoError, or the driver cannot tell whether
 * the server aborted the transaction (an error inside a transaction aborts it on the server: a duplicate key too).
 * `work` calls `refuse(outcome)` to stop with nothing written: a refusal is no MongoError, so the driver aborts the
 * transaction and rethrows it without retrying, and it is caught here and answered — on whichever run it happens.
 */
export async function transaction<T>(
  client: MongoClient,
  work: (session: ClientSession, refuse: Refuse<T>) => Promise<T>,
): Promise<T> {
  const owner = {};
  const refuse: Refuse<T> = (outcome) => {
    throw new Refusal(outcome, owner);
  };
  try {
    return await client.withSession((session) =>
      session.withTransaction((s) => work(s, refuse), TRANSACTION_OPTIONS),
    );
  } catch (error) {
    if (error instanceof Refusal && error.owner === owner) return error.outcome as T;
    throw error;
  }
}

/** The counter's value (0 for one not created yet). */
export async function readCounter(
  counters: Collection<CounterDocument>,
  name: CounterName,
  session?: ClientSession,
): Promise<number> {
  const found = await counters.findOne({ _id: name }, session ? { session } : {});
  return found?.value ?? 0;
}

/** Adds `by` to the counter inside `session`'s transaction and returns the new value. */
export async function addToCounter(
  counters: Collection<CounterDocument>,
  name: CounterName,
  by: number,
  session: ClientSession,
): Promise<number> {
  const updated = await counters.findOneAndUpdate(
    { _id: name },
    { $inc: { value: by } },
    // Driver 6 resolves to the document itself (includeResultMetadata: false is its default; said here so that a
    // reader of 5.x code does not look for `.value`); with upsert and 'after' it is never null.
    { session, upsert: true, returnDocument: 'after', includeResultMetadata: false },
  );
  if (updated === null) throw new Error(`The ${name} counter vanished while it was being increased.`);
  return updated.value;
}
