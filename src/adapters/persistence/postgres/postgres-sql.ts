// How the adapters run SQL: text with positional parameters ($1, $2, …) on the pool or inside a transaction, and
// named statements — SQL written with `@column` as the SQLite adapters write it, turned into `$n` once when a module
// loads, bound from a row object by name (so a statement binds only the values it uses: PostgreSQL cannot type a
// parameter no statement mentions).

/** Rows a statement answered, and how many rows it inserted, updated or deleted. */
export type Rows<Row> = readonly Row[] & { readonly count: number };

/** Something that runs statements: the pool (each its own transaction) or one transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Rows<Row>>;
}

/**
 * Lifts, for the rest of one transaction only, the session limits every request runs under (statement_timeout and
 * lock_timeout, 10 s; idle_in_transaction_session_timeout, 30 s): for the work that may rightly take longer — the
 * export and import of a whole store (waiting on the file or its reader too), and migrations (building an index on
 * a large table, or waiting for another instance's migration under the advisory lock).
 */
export const UNHURRIED = `SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '0', true),
  set_config('idle_in_transaction_session_timeout', '0', true)`;

/** A statement whose parameters are named in its text (`@name`), bound from an object that holds every name. */
export class NamedStatement<P extends object> {
  /** The text PostgreSQL runs, each name replaced by its position. */
  readonly text: string;
  private readonly names: readonly string[];

  constructor(sql: string) {
    const names: string[] = [];
    this.text = sql.replace(/@([a-z_][a-z0-9_]*)/gi, (_, name: string) => {
      const at = names.indexOf(name);
      return `$${at === -1 ? names.push(name) : at + 1}`;
    });
    this.names = names;
  }

  /** The values in parameter order; a name the object lacks is a bug, said at once. */
  params(values: P): unknown[] {
    return this.names.map((name) => {
      const value = (values as Record<string, unknown>)[name];
      if (value === undefined) throw new Error(`no value for @${name} in: ${this.text}`);
      return value;
    });
  }

  run<Row = Record<string, unknown>>(db: Queryable, values: P): Promise<Rows<Row>> {
    return db.query<Row>(this.text, this.params(values));
  }
}

export const named = <P extends object>(sql: string): NamedStatement<P> => new NamedStatement<P>(sql);

/** The first row, or undefined. */
export async function one<Row>(rows: Promise<Rows<Row>>): Promise<Row | undefined> {
  return (await rows)[0];
}

/** A value an array literal holds. */
export type ArrayElement = string | number | boolean | Date | Uint8Array | null;

const element = (value: Exclude<ArrayElement, null>): string =>
  value instanceof Date
    ? value.toISOString()
    : value instanceof Uint8Array
      ? `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`
      : typeof value === 'boolean'
        ? value
          ? 't'
          : 'f'
        : String(value);

/**
 * PostgreSQL's text form of an array (`{"a","b",NULL}`), passed as one text parameter and cast in the statement
 * (`$1::timestamptz[]`): one statement, one prepared text, whatever the number of rows it carries.
 */
export function arrayLiteral(values: readonly ArrayElement[]): string {
  const quoted = values.map((value) =>
    value === null ? 'NULL' : `"${element(value).replace(/[\\"]/g, (c) => `\\${c}`)}"`,
  );
  return `{${quoted.join(',')}}`;
}
