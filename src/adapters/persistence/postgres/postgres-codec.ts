// A record's one mapping to and from its row (docs/adr/0016), as the SQLite store's codecs (sqlite-codec.ts) with
// PostgreSQL's own types: the columns are declared once, with their SQL type, and the row type, the column lists and
// the named parameters of every statement are derived from them — so a codec that leaves a column out, or puts a
// number where the table keeps a time, does not compile. The SQL is built when a module loads (named statements,
// postgres-sql.ts) and prepared by the driver on each connection; rows are bound by name.
import { arrayLiteral, type ArrayElement } from './postgres-sql.js';

/** A column's type as its table declares it: `?` where it may hold NULL. */
export type ColumnType =
  | 'text'
  | 'text?'
  | 'integer'
  | 'integer?'
  | 'bigint'
  | 'bigint?'
  | 'boolean'
  | 'timestamptz'
  | 'timestamptz?';

export type Columns = { readonly [column: string]: ColumnType };

type Base<T extends ColumnType> = T extends `${infer B}?` ? B : T;
type Plain<B> = B extends 'text'
  ? string
  : B extends 'boolean'
    ? boolean
    : B extends 'timestamptz'
      ? Date
      : number;
type ValueOf<T extends ColumnType> = T extends `${string}?` ? Plain<Base<T>> | null : Plain<T>;

/** A row of the columns, as the driver binds it and reads it back (bigint read as a number: ids, positions). */
export type RowOf<C extends Columns> = { -readonly [K in keyof C]: ValueOf<C[K]> };

/** A record's mapping to and from a row of its table. */
export interface RowMapping<T, C extends Columns> {
  toRow(value: T): RowOf<C>;
  fromRow(row: RowOf<C>): T;
}

export interface PostgresCodec<T, C extends Columns = Columns> extends RowMapping<T, C> {
  readonly table: string;
  /** Every column the record is written to (the order of the derived lists). */
  readonly columns: C;
  /** Columns the store fills itself (an identity position, a job's lease): in the table, not in the record. */
  readonly storeColumns: readonly string[];
  /** The columns, comma-separated: a SELECT's or an INSERT's list. */
  readonly list: string;
  /** The same columns as named parameters: an INSERT's VALUES. */
  readonly parameters: string;
}

/**
 * The table `table` with the columns a record is written to and those the store fills itself; `.codec<T>(mapping)`
 * is the one mapping of records of type `T` to and from its rows.
 */
export function postgresTable<const C extends Columns>(
  table: string,
  columns: C,
  storeColumns: readonly string[] = [],
): { codec<T>(mapping: RowMapping<T, C>): PostgresCodec<T, C> } {
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

/** `INSERT INTO table (…) VALUES (@…)` of every column, then `rest` (an ON CONFLICT clause, RETURNING). */
export const insertSql = (codec: PostgresCodec<unknown>, rest = ''): string =>
  `INSERT INTO ${codec.table} (${codec.list}) VALUES (${codec.parameters}) ${rest}`.trimEnd();

const baseOf = (type: ColumnType): Base<ColumnType> => type.replace('?', '') as Base<ColumnType>;

/**
 * An INSERT of many rows in one statement: each column's values as one array parameter (`@column`, see
 * columnArrays), unnested in the rows' order — so identity positions follow it — then `rest`.
 */
export function insertManySql(codec: PostgresCodec<unknown>, rest = ''): string {
  const arrays = Object.entries(codec.columns)
    .map(([column, type]) => `@${column}::${baseOf(type)}[]`)
    .join(', ');
  return (
    `INSERT INTO ${codec.table} (${codec.list}) SELECT ${codec.list} ` +
    `FROM unnest(${arrays}) WITH ORDINALITY AS r(${codec.list}, ord) ORDER BY ord ${rest}`
  ).trimEnd();
}

/** The rows as insertManySql binds them: each column's values, in row order, as an array literal. */
export function columnArrays<C extends Columns>(
  codec: PostgresCodec<unknown, C>,
  rows: readonly RowOf<C>[],
): Record<string, string> {
  return Object.fromEntries(
    Object.keys(codec.columns).map((column) => [
      column,
      arrayLiteral(rows.map((row) => row[column] as ArrayElement)),
    ]),
  );
}

/** The column list with each column prefixed by `alias.` (for a join). */
export const qualifiedList = (codec: PostgresCodec<unknown>, alias: string): string =>
  Object.keys(codec.columns)
    .map((column) => `${alias}.${column}`)
    .join(', ');

/**
 * `column = @column, …` of every column but `except` — what an UPDATE replaces (a new column is replaced unless
 * listed) — or, with `source` `EXCLUDED.`, what an upsert takes from the row it tried to insert.
 */
export function assignments<C extends Columns>(
  codec: PostgresCodec<unknown, C>,
  except: readonly ColumnOf<C>[],
  source: '@' | 'EXCLUDED.' = '@',
): string {
  return Object.keys(codec.columns)
    .filter((column) => !except.includes(column))
    .map((column) => `${column} = ${source}${column}`)
    .join(', ');
}

/** The column names of a codec, for a caller that lists some of them by name (typed, so a renamed one fails). */
export const columnsOf = <C extends Columns>(codec: PostgresCodec<unknown, C>): ColumnOf<C>[] =>
  Object.keys(codec.columns) as ColumnOf<C>[];

/** How information_schema.columns names each type: what the schema test compares every codec with. */
export const SQL_TYPE_NAMES: { readonly [T in Base<ColumnType>]: string } = {
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  boolean: 'boolean',
  timestamptz: 'timestamp with time zone',
};
