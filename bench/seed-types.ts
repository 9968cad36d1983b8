/** What bench/seed.ts is asked to write. */
export interface SeedOptions {
  /** The SQLite file (created if missing). */
  readonly path: string;
  /** PUBLIC_URL of the service that will serve the store: activity documents embed it. */
  readonly publicUrl: string;
  readonly bcryptCost: number;
  /** The password every seeded user shares. */
  readonly password: string;
  readonly users: number;
  readonly activities: number;
  readonly revocations: number;
  /** Adapter calls per enclosing SQLite transaction; 1 commits each call on its own. */
  readonly batch: number;
}

export interface SeedReport {
  users: number;
  activities: number;
  heavyActivities: number;
  revocations: number;
  seconds: { fixtures: number; users: number; activities: number; revocations: number; total: number };
  /**
   * Bytes of the SQLite file by table (dbstat): the transparency log's hashes and state (issue 27) beside the
   * activities they cover and the whole file.
   */
  bytes?: { tlog: number; activities: number; total: number };
  usernames: SeedUsernames;
}

export interface SeedUsernames {
  /** Logs in and verifies. */
  readonly client: string;
  /** Owns every fifth activity: the deep outbox. */
  readonly heavy: string;
  /** Owns one activity in 5000: an outbox of ordinary size. */
  readonly light: string;
}

/** What bench/seed-fat-log.ts is asked to write: fat activities only (issue 33). */
export interface FatSeedOptions {
  readonly path: string;
  readonly publicUrl: string;
  readonly bcryptCost: number;
  readonly password: string;
  readonly activities: number;
}

export interface FatSeedReport {
  readonly activities: number;
  /** The mean size of an entry (the stored activity document), in bytes. */
  readonly meanEntryBytes: number;
  readonly seconds: number;
}
