// A record's one mapping to and from its row (docs/adr/0016): the columns are declared once, with their SQL type,
// and the row type, the column lists and the named parameters of every statement are derived from them — so a
// codec that leaves a column out, or a statement that names one the codec does not write, does not compile. The SQL
// is built when a module loads and prepared once by each adapter, as before; rows are bound by name. What both SQL
// stores share is sql-table.ts; what is SQLite's own is here: its column types (times in ms, flags as 0/1).
import { sqlTable, type RowMapping, type SqlCodec } from '../sql-table.js';

export { assignments, columnsOf, insertSql, qualifiedList, type RowMapping } from '../sql-table.js';

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

export type SqliteCodec<T, C extends Columns = Columns> = SqlCodec<T, C, RowOf<C>>;

/**
 * The table `table` with the columns a record is written to and those the store fills
 * itself; `.codec<T>(mapping)` is the one mapping of records of type `T` to and from its rows.
 */
export const sqliteTable = <const C extends Columns>(
  table: string,
  columns: C,
  storeColumns: readonly string[] = [],
): { codec<T>(mapping: RowMapping<T, RowOf<C>>): SqliteCodec<T, C> } =>
  sqlTable<C, RowOf<C>>(table, columns, storeColumns);

export const millisOrNull = (at: Date | null): number | null => (at === null ? null : at.getTime());
export const dateOrNull = (millis: number | null): Date | null => (millis === null ? null : new Date(millis));
