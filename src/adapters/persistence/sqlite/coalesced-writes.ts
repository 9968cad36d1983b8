import type { Database } from 'better-sqlite3';
import { storeCall } from './sqlite-errors.js';

interface Waiting {
  readonly write: () => number;
  readonly resolve: (changes: number) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Commits the small writes that arrive within one turn of the event loop in one transaction. Every commit writes
 * the changed pages to the WAL; a worker recording hundreds of delivered jobs a second would otherwise spend most
 * of its time there. Each write still answers for itself: when the batch fails, the writes are retried one by one.
 */
export class CoalescedWrites {
  private waiting: Waiting[] = [];

  constructor(private readonly db: Database) {}

  /** Runs `write` (returning how many rows it changed) with the others of this turn. */
  run(write: () => number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.waiting;
    this.waiting = [];
    let results: number[];
    try {
      results = storeCall(() => this.db.transaction(() => batch.map((w) => w.write())).immediate());
    } catch {
      for (const w of batch) {
        try {
          w.resolve(storeCall(w.write));
        } catch (error) {
          w.reject(error);
        }
      }
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]!));
  }
}
