// A record's one mapping to and from its row (docs/adr/0016), as the SQLite store's codecs (sqlite-codec.ts) with
// PostgreSQL's own types: the columns are declared once, with their SQL type, and the row type, the column lists and
// the named parameters of every statement are derived from them — so a codec that leaves a column out, or puts a
// number where the table keeps a time, does not compile. The SQL is built when a module loads (named statements,
// postgres-sql.ts) and prepared by the driver on each connection; rows are bound by name. What both SQL stores share is
// sql-table.ts; what is PostgreSQL's own is here: its column types, and inserts of many rows through unnest.
import { sqlTable, type RowMapping, type SqlCodec } from '../sql-table.js';
import { arrayLiteral, type ArrayElement } from './postgres-sql.js';

export { assignments, columnsOf, insertSql, qualifiedList, type RowMapping } from '../sql-table.js';

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

export type PostgresCodec<T, C extends Columns = Columns> = SqlCodec<T, C, RowOf<C>>;

/**
 * The table `table` with the columns a record is written to and those the store fills itself; `.codec<T>(mapping)`
 * is the one mapping of records of type `T` to and from its rows.
 */
export const postgresTable = <const C extends Columns>(
  table: string,
  columns: C,
  storeColumns: readonly string[] = [],
): { codec<T>(mapping: RowMapping<T, RowOf<C>>): PostgresCodec<T, C> } =>
  sqlTable<C, RowOf<C>>(table, columns, storeColumns);

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

/** How information_schema.columns names each type: what the schema test compares every codec with. */
export const SQL_TYPE_NAMES: { readonly [T in Base<ColumnType>]: string } = {
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  boolean: 'boolean',
  timestamptz: 'timestamp with time zone',
};
