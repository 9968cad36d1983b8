// What the two SQL stores' record codecs share (docs/adr/0016): a table's columns declared once, the column lists and
// named parameters derived from them, and the statement pieces built from those. Each store declares its own column
// types and row type (sqlite-codec.ts: times as milliseconds, flags as 0/1; postgres-codec.ts: timestamptz, boolean),
// so a codec is checked against the types its own table keeps.

/** A record's mapping to and from a row of its table. */
export interface RowMapping<T, R> {
  toRow(value: T): R;
  fromRow(row: R): T;
}

/** A table as the statements see it: its name, the columns a record is written to, and their lists. */
export interface SqlTable<C extends object> {
  readonly table: string;
  /** Every column the record is written to (the order of the derived lists). */
  readonly columns: C;
  /** Columns the store fills itself (a position it assigns, a job's lease): in the table, not in the record. */
  readonly storeColumns: readonly string[];
  /** The columns, comma-separated: a SELECT's or an INSERT's list. */
  readonly list: string;
  /** The same columns as named parameters: an INSERT's VALUES. */
  readonly parameters: string;
}

/** A table, and the one mapping of its records to and from its rows. */
export interface SqlCodec<T, C extends object, R> extends SqlTable<C>, RowMapping<T, R> {}

/**
 * The table `table` with the columns a record is written to and those the store fills itself; `.codec<T>(mapping)`
 * is the one mapping of records of type `T` to and from rows of type `R`.
 */
export function sqlTable<C extends object, R>(
  table: string,
  columns: C,
  storeColumns: readonly string[],
): { codec<T>(mapping: RowMapping<T, R>): SqlCodec<T, C, R> } {
  const names = Object.keys(columns);
  const list = names.join(', ');
  const parameters = names.map((column) => `@${column}`).join(', ');
  return {
    codec: (mapping) => ({
      table,
      columns,
      storeColumns,
      list,
      parameters,
      toRow: mapping.toRow,
      fromRow: mapping.fromRow,
    }),
  };
}

type ColumnOf<C extends object> = keyof C & string;

/** `INSERT INTO table (…) VALUES (@…)` of every column, then `rest` (an ON CONFLICT clause, RETURNING). */
export const insertSql = (
  codec: SqlTable<object>,
  rest = '',
  verb: 'INSERT' | 'INSERT OR IGNORE' | 'INSERT OR REPLACE' = 'INSERT',
): string => `${verb} INTO ${codec.table} (${codec.list}) VALUES (${codec.parameters}) ${rest}`.trimEnd();

/** The column list with each column prefixed by `alias.` (for a join). */
export const qualifiedList = (codec: SqlTable<object>, alias: string): string =>
  Object.keys(codec.columns)
    .map((column) => `${alias}.${column}`)
    .join(', ');

/**
 * `column = @column, …` of every column but `except` — what an UPDATE replaces (a new column is replaced unless
 * listed) — or, with `source` `excluded.`, what an upsert takes from the row it tried to insert.
 */
export function assignments<C extends object>(
  codec: SqlTable<C>,
  except: readonly ColumnOf<C>[],
  source: '@' | 'excluded.' = '@',
): string {
  return Object.keys(codec.columns)
    .filter((column) => !except.includes(column as ColumnOf<C>))
    .map((column) => `${column} = ${source}${column}`)
    .join(', ');
}

/** The column names of a codec, for a caller that lists some of them by name (typed, so a renamed one fails). */
export const columnsOf = <C extends object>(codec: SqlTable<C>): ColumnOf<C>[] =>
  Object.keys(codec.columns) as ColumnOf<C>[];
