import type { Positioned, SeekableList } from '../../../application/ports/positioned.js';
import type { Queryable } from './postgres-sql.js';

/**
 * Stands for "no upper bound" in a `position < $n` seek, so that the newest page runs the same index range as every
 * other page. Above every identity value and idx this store will ever hand out.
 */
export const NO_POSITION_BOUND = Number.MAX_SAFE_INTEGER;

/** A statement's text and its positional parameters, built per filter; exported builders let tests EXPLAIN them. */
export interface Query {
  readonly text: string;
  readonly params: readonly unknown[];
}

/** How one table pages: its seek and count queries for a filter, and how a row becomes a positioned entry. */
export interface SeekQueries<T, F, Row> {
  seek(filter: F, direction: 'older' | 'newer', bound: number, limit: number): Query;
  count(filter: F): Query;
  read(row: Row): Positioned<T>;
}

/** The comparison and order of a seek: `older` newest first below the bound, `newer` oldest first above it. */
export const seekOrder = (direction: 'older' | 'newer'): readonly ['<' | '>', 'DESC' | 'ASC'] =>
  direction === 'older' ? ['<', 'DESC'] : ['>', 'ASC'];

/**
 * A cursor-paged list over one table (SeekableList): the two seeks and the count, written once for every table
 * whose queries depend on a filter. Each text is prepared once per connection by the driver (a handful of texts:
 * one per filter shape and direction, values are always parameters).
 */
export class FilteredSeeks<T, F, Row> implements SeekableList<T, F> {
  constructor(
    protected readonly db: Queryable,
    private readonly paging: SeekQueries<T, F, Row>,
  ) {}

  async listOlder(filter: F, before: number | null, limit: number): Promise<Positioned<T>[]> {
    if (limit <= 0) return [];
    return this.rows(this.paging.seek(filter, 'older', before ?? NO_POSITION_BOUND, limit));
  }

  async listNewer(filter: F, after: number, limit: number): Promise<Positioned<T>[]> {
    if (limit <= 0) return [];
    return this.rows(this.paging.seek(filter, 'newer', after, limit));
  }

  async count(filter: F): Promise<number> {
    const { text, params } = this.paging.count(filter);
    const [row] = await this.db.query<{ n: number }>(text, params);
    return row?.n ?? 0;
  }

  private async rows(query: Query): Promise<Positioned<T>[]> {
    const rows = await this.db.query<Row>(query.text, query.params);
    return rows.map((row) => this.paging.read(row));
  }
}
