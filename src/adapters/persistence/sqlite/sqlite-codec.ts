// A record's one mapping to and from its row (docs/adr/0016): the columns are declared once, with their SQL type,
// and the row type, the column lists and the named parameters of every statement are derived from them — so a
// codec that leaves a column out, or a statement that names one the codec does not write, does not compile. The SQL
// is built when a module loads and prepared once by each adapter, as before; rows are bound by name.

/** A column's type as its table declares it: `?` where it may hold NULL. */
export type ColumnType = 'text' | 'text?' | 'integer' | 'integer?';

export type Columns = { readonly [column: string]: ColumnType };

type ValueOf<T extends ColumnType> = T extends 'text'
  ? string
  : T extends 'text?'
    ? string | null
    : T extends 'integer'
      ? number
      : number | null;

/** A row of the columns, as better-sqlite3 binds it (named parameters) and reads it back. */
export type RowOf<C extends Columns> = { -readonly [K in keyof C]: ValueOf<C[K]> };

/** A record's mapping to and from a row of its table. */
export interface RowMapping<T, C extends Columns> {
  toRow(value: T): RowOf<C>;
  fromRow(row: RowOf<C>): T;
}

export interface SqliteCodec<T, C extends Columns = Columns> extends RowMapping<T, C> {
  readonly table: string;
  /** Every column the record is written to (the order of the derived lists). */
  readonly columns: C;
  /** Columns the store fills itself (an AUTOINCREMENT position, a job's lease): in the table, not in the record. */
  readonly storeColumns: readonly string[];
  /** The columns, comma-separated: a SELECT's or an INSERT's list. */
  readonly list: string;
  /** The same columns as named parameters: an INSERT's VALUES. */
  readonly parameters: string;
}

/**
 * The table `table` with the columns a record is written to and those the store fills
 * itself; `.codec<T>(mapping)` is the one mapping of records of type `T` to and from its rows.
 */
export function sqliteTable<const C extends Columns>(
  table: string,
  columns: C,
  storeColumns: readonly string[] = [],
): { codec<T>(mapping: RowMapping<T, C>): SqliteCodec<T, C> } {
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

type ColumnOf<C extends Columns> = keyof C & string;

/** `INSERT INTO table (…) VALUES (@…)` of every column, then `rest` (an ON CONFLICT clause). */
export const insertSql = (
  codec: SqliteCodec<unknown>,
  rest = '',
  verb: 'INSERT' | 'INSERT OR IGNORE' | 'INSERT OR REPLACE' = 'INSERT',
): string => `${verb} INTO ${codec.table} (${codec.list}) VALUES (${codec.parameters}) ${rest}`.trimEnd();

/** The column list with each column prefixed by `alias.` (for a join). */
export const qualifiedList = (codec: SqliteCodec<unknown>, alias: string): string =>
  Object.keys(codec.columns)
    .map((column) => `${alias}.${column}`)
    .join(', ');

/**
 * `column = @column, …` of every column but `except` — what an UPDATE replaces (a new column is replaced unless
 * listed) — or, with `source` `excluded.`, what an upsert takes from the row it tried to insert.
 */
export function assignments<C extends Columns>(
  codec: SqliteCodec<unknown, C>,
  except: readonly ColumnOf<C>[],
  source: '@' | 'excluded.' = '@',
): string {
  return Object.keys(codec.columns)
    .filter((column) => !except.includes(column))
    .map((column) => `${column} = ${source}${column}`)
    .join(', ');
}

/** The column names of a codec, for a caller that lists some of them by name (typed, so a renamed one fails). */
export const columnsOf = <C extends Columns>(codec: SqliteCodec<unknown, C>): ColumnOf<C>[] =>
  Object.keys(codec.columns) as ColumnOf<C>[];

export const millisOrNull = (at: Date | null): number | null => (at === null ? null : at.getTime());
export const dateOrNull = (millis: number | null): Date | null => (millis === null ? null : new Date(millis));
