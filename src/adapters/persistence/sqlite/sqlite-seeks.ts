import type { Database, Statement } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { Positioned, SeekableList } from '../../../application/ports/positioned.js';
import { storeCall } from './sqlite-errors.js';
import { prefixSuccessor } from '../prefix-successor.js';

export { prefixSuccessor };

/**
 * Stands for "no upper bound" in a `position < ?` seek, so that the newest page runs the same indexed SEARCH as
 * every other page. Above every AUTOINCREMENT value and idx this store will ever hand out.
 */
export const NO_POSITION_BOUND = Number.MAX_SAFE_INTEGER;

/** A statement's text and its positional parameters, built per filter; exported builders let tests EXPLAIN them. */
export interface Query {
  readonly sql: string;
  readonly params: readonly (string | number)[];
}

/** Far more texts than the filters make: the bound only guards against a text that ever carried a value. */
const MAX_PREPARED = 256;

/**
 * Runs queries whose text depends on a filter, preparing each text once. There are only a handful of texts (one
 * per filter shape and direction), since values are always parameters; a statement forgotten is prepared again.
 */
export class PreparedQueries {
  private readonly statements = new LRUCache<string, Statement<unknown[], unknown>>({ max: MAX_PREPARED });

  constructor(private readonly db: Database) {}

  all<Row>(query: Query): Row[] {
    return storeCall(() => this.statement(query.sql).all(...query.params) as Row[]);
  }

  get<Row>(query: Query): Row | undefined {
    return storeCall(() => this.statement(query.sql).get(...query.params) as Row | undefined);
  }

  private statement(sql: string): Statement<unknown[], unknown> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** How one table pages: its seek and count queries for a filter, and how a row becomes a positioned entry. */
export interface SeekQueries<T, F, Row> {
  seek(filter: F, direction: 'older' | 'newer', bound: number, limit: number): Query;
  count(filter: F): Query;
  read(row: Row): Positioned<T>;
}

/**
 * A cursor-paged list over one table (SeekableList): the two seeks and the count, written once for every table
 * whose queries depend on a filter. Repositories extend it with their own writes and reads.
 */
export class FilteredSeeks<T, F, Row> implements SeekableList<T, F> {
  protected readonly queries: PreparedQueries;

  constructor(
    db: Database,
    private readonly paging: SeekQueries<T, F, Row>,
  ) {
    this.queries = new PreparedQueries(db);
  }

  async listOlder(filter: F, before: number | null, limit: number): Promise<Positioned<T>[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0) return [];
    return this.rows(this.paging.seek(filter, 'older', before ?? NO_POSITION_BOUND, limit));
  }

  async listNewer(filter: F, after: number, limit: number): Promise<Positioned<T>[]> {
    if (limit <= 0) return [];
    return this.rows(this.paging.seek(filter, 'newer', after, limit));
  }

  async count(filter: F): Promise<number> {
    return this.queries.get<{ n: number }>(this.paging.count(filter))?.n ?? 0;
  }

  private rows(query: Query): Positioned<T>[] {
    return this.queries.all<Row>(query).map((row) => this.paging.read(row));
  }
}
