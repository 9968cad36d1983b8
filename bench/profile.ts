// How big and how long: the full run that docs/performance.md records, and --quick for a CI smoke test.

export interface Profile {
  readonly name: 'full' | 'quick';
  readonly bcryptCost: number;
  readonly users: number;
  readonly activities: number;
  readonly revocations: number;
  /** Adapter calls per enclosing SQLite transaction while seeding. */
  readonly seedBatch: number;
  /** Length of each throughput measurement (rps at many connections). */
  readonly throughputSeconds: number;
  /** Length of the registration measurement: one registration takes seconds under load, so never very short. */
  readonly registrationSeconds: number;
  /** Length of each latency measurement (one connection, requests back to back). */
  readonly latencySeconds: number;
  /** Unmeasured load before each measurement, so that the JIT and caches are warm. */
  readonly warmUpSeconds: number;
  /** Length of each ceiling measurement. */
  readonly ceilingSeconds: number;
  /** Scenario 7: followers spread over fake servers, and how many activities are published to them. */
  readonly fanOut: { readonly hosts: number; readonly followersPerHost: number; readonly activities: number };
  /** Scenario 7's profile line: how many profile changes are sent to the same followers, one after another. */
  readonly profileChanges: number;
}

export const CONNECTIONS = {
  /** Verify, federation reads and the baseline. */
  throughput: 64,
  /** Concurrent logins of the storm. */
  loginStorm: 16,
  /** Concurrent registration clients. */
  registration: 8,
  /** Page latency: one connection, so a figure is the service time of one request, not queueing behind others. */
  latency: 1,
  /** Asset writers (scenario 11): enough to keep one process's writes back to back. */
  writes: 16,
} as const;

export const PROFILES: Record<Profile['name'], Profile> = {
  full: {
    name: 'full',
    bcryptCost: 12,
    users: 100_000,
    activities: 1_000_000,
    revocations: 1_000_000,
    seedBatch: 1000,
    throughputSeconds: 15,
    registrationSeconds: 20,
    latencySeconds: 10,
    warmUpSeconds: 3,
    ceilingSeconds: 15,
    fanOut: { hosts: 500, followersPerHost: 10, activities: 20 },
    profileChanges: 20,
  },
  quick: {
    name: 'quick',
    bcryptCost: 12,
    users: 2_000,
    activities: 20_000,
    revocations: 20_000,
    seedBatch: 1000,
    throughputSeconds: 2,
    registrationSeconds: 6,
    latencySeconds: 2,
    warmUpSeconds: 0.5,
    ceilingSeconds: 2,
    fanOut: { hosts: 100, followersPerHost: 10, activities: 5 },
    profileChanges: 3,
  },
};
