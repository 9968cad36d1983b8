// The two stores the crash test kills L2 on, as the test reads and seeds them behind L2's back: a SQLite file, and a
// PostgreSQL database on the test-wide server (docs/adr/0018).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { arrayLiteral } from '../../src/adapters/persistence/postgres/postgres-sql.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { JobKind } from '../../src/domain/jobs.js';
import { freshDatabase, postgresAvailable } from '../support/postgres-cluster.js';

/** A queued job as the crash checks read it (`lease_until` in milliseconds). */
export interface JobRow {
  id: number;
  payload: string;
  state: string;
  lease_id: string | null;
  lease_until: number | null;
}

/** A remote follower written before the first start. */
export interface SeededFollower {
  readonly username: string;
  readonly actor: string;
  readonly inbox: string;
  readonly shared: string | null;
  readonly followId: string;
}

/** The store of a crash run, seen from the test. */
export interface CrashStore {
  /** STORE for the L2 processes. */
  readonly url: string;
  /** Makes the store (L2's own migrations) and writes the followers, before the first start. */
  seedFollowers(followers: readonly SeededFollower[]): Promise<void>;
  /** Every job of `kind`, read now. */
  readJobs(kind: JobKind): Promise<JobRow[]>;
  close(): Promise<void>;
}

export interface CrashStoreKind {
  readonly name: string;
  available(): boolean;
  make(dir: string): Promise<CrashStore>;
}

const JOBS = 'SELECT id, payload, state, lease_id, lease_until FROM jobs WHERE kind = ';

export const CRASH_STORES: readonly CrashStoreKind[] = [
  {
    name: 'SQLite, restarted on the same file',
    available: () => true,
    make: async (dir) => {
      const path = join(dir, 'l2.sqlite');
      return {
        url: `sqlite:${path}`,
        seedFollowers: async (followers) => {
          const store = openSqlitePersistence(path);
          try {
            const insert = store.db.prepare<[string, string, string, string | null, string, number]>(
              'INSERT INTO followers (username, actor, inbox, shared_inbox, follow_id, followed_at) VALUES (?, ?, ?, ?, ?, ?)',
            );
            store.db.transaction(() => {
              for (const f of followers)
                insert.run(f.username, f.actor, f.inbox, f.shared, f.followId, Date.now());
            })();
          } finally {
            store.db.close();
          }
        },
        readJobs: async (kind) => {
          const db = new Database(path, { readonly: true, fileMustExist: true });
          try {
            return db.prepare<[JobKind], JobRow>(`${JOBS}?`).all(kind);
          } finally {
            db.close();
          }
        },
        close: async () => undefined,
      };
    },
  },
  {
    name: 'PostgreSQL, restarted on the same database',
    available: () => postgresAvailable(),
    make: async () => {
      const scratch = await freshDatabase();
      const db = openPostgresPersistence(scratch.url).database;
      return {
        url: scratch.url,
        seedFollowers: async (followers) => {
          await db.query(
            `INSERT INTO followers (username, actor, inbox, shared_inbox, follow_id, followed_at)
             SELECT u, a, i, s, f, now() FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
               AS t(u, a, i, s, f)`,
            [
              arrayLiteral(followers.map((f) => f.username)),
              arrayLiteral(followers.map((f) => f.actor)),
              arrayLiteral(followers.map((f) => f.inbox)),
              arrayLiteral(followers.map((f) => f.shared)),
              arrayLiteral(followers.map((f) => f.followId)),
            ],
          );
        },
        readJobs: async (kind) =>
          (
            await db.query<Omit<JobRow, 'lease_until'> & { lease_until: Date | null }>(`${JOBS}$1`, [kind])
          ).map((row) => ({ ...row, lease_until: row.lease_until?.getTime() ?? null })),
        close: async () => {
          await db.close();
          await scratch.drop();
        },
      };
    },
  },
];
