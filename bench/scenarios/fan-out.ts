// Scenario 7: fan-out. One user with many followers spread over many fake servers (bench/inbox-hosts.ts, its own
// process) publishes a series of activities; measured: the time until every live server has every activity, with
// all servers alive and with half of them hanging (accepting the request, never answering).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { benchFile } from '../child.js';
import type { RunningServer } from '../servers.js';

export interface FanOutShape {
  readonly hosts: number;
  readonly followersPerHost: number;
  readonly activities: number;
}

export interface FanOutRun extends FanOutShape {
  readonly hanging: number;
  /** From the first publish until every live host had every activity. */
  readonly seconds: number;
  /** The 20 POST /assets themselves (signing and the append with its queued deliveries). */
  readonly publishSeconds: number;
  /** Deliveries the live hosts received (at least live hosts × activities; more if any was repeated). */
  readonly deliveries: number;
  readonly deliveriesPerSecond: number;
}

export interface FanOutResults {
  readonly alive: FanOutRun;
  readonly halfHanging: FanOutRun;
  /** The same deliveries sent by a bare client (bench/fan-out-floor.ts): no store, no queue, no publishing. */
  readonly floor: {
    readonly seconds: number;
    readonly deliveries: number;
    readonly deliveriesPerSecond: number;
  };
}

export const USERNAME = 'fanout';
export const PASSWORD = 'fan-out password 1';

/** A profile version every live host has: when the last of them got it, and the profile Updates received so far. */
export interface VersionDone {
  readonly version: number;
  readonly at: number;
  readonly deliveries: number;
  /** The size of the Update's body. */
  readonly bytes: number;
}

/**
 * Starts the fake servers and resolves with their ports and a promise of the moment all live ones are done; with
 * `profile`, they count profile Updates instead, and `nextVersion` resolves as each version reaches every live host.
 */
export async function startHosts(shape: FanOutShape, hanging: number, profile = false) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', benchFile('inbox-hosts.ts'), JSON.stringify({ ...shape, hanging, profile })],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  let onPorts!: (ports: number[]) => void;
  let onDone!: (done: { doneAt: number; deliveries: number }) => void;
  const ports = new Promise<number[]>((resolve) => (onPorts = resolve));
  const done = new Promise<{ doneAt: number; deliveries: number }>((resolve) => (onDone = resolve));
  const versions: VersionDone[] = [];
  const waiting: ((v: VersionDone) => void)[] = [];
  lines.on('line', (line) => {
    const message = JSON.parse(line) as Partial<VersionDone> & {
      ports?: number[];
      doneAt?: number;
      deliveries?: number;
    };
    if (message.ports) onPorts(message.ports);
    if (message.doneAt) onDone({ doneAt: message.doneAt, deliveries: message.deliveries ?? 0 });
    if (message.version !== undefined && message.at !== undefined) {
      const reached = {
        version: message.version,
        at: message.at,
        deliveries: message.deliveries ?? 0,
        bytes: message.bytes ?? 0,
      };
      const next = waiting.shift();
      if (next) next(reached);
      else versions.push(reached);
    }
  });
  const exited = once(child, 'exit').then(() => {
    throw new Error('the inbox hosts exited early');
  });
  const within = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([
      promise,
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${what} not done after ${ms / 1000} s`)), ms).unref(),
      ),
    ]);
  return {
    ports: await Promise.race([ports, exited]),
    done: (ms: number) => within(done, ms, 'fan-out'),
    /** The next profile version to reach every live host (in the order they did). */
    nextVersion: (ms: number) =>
      within(
        versions.length > 0
          ? Promise.resolve(versions.shift()!)
          : new Promise<VersionDone>((resolve) => waiting.push(resolve)),
        ms,
        'the profile Update',
      ),
    stop: () => child.kill('SIGKILL'),
  };
}

/** Every host's followers of `fanout`, written straight into the store before the service starts. */
export function seedFollowers(storePath: string, ports: number[], perHost: number): void {
  const store = openSqlitePersistence(storePath);
  const insert = store.db.prepare(
    'INSERT INTO followers (username, actor, inbox, shared_inbox, follow_id, followed_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  store.db.transaction(() => {
    for (const port of ports) {
      const host = `http://127.0.0.1:${port}`;
      for (let f = 0; f < perHost; f++) {
        const actor = `${host}/users/f${f}`;
        insert.run(USERNAME, actor, `${actor}/inbox`, `${host}/inbox`, `${actor}#follow`, Date.now());
      }
    }
  })();
  store.db.close();
}

export async function post(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function run(
  shape: FanOutShape,
  hanging: number,
  storePath: string,
  startL2: (storePath: string) => Promise<RunningServer>,
): Promise<FanOutRun> {
  const hosts = await startHosts(shape, hanging);
  let l2: RunningServer | null = null;
  try {
    seedFollowers(storePath, hosts.ports, shape.followersPerHost);
    l2 = await startL2(storePath);
    const { access_token: token } = await post(`${l2.url}/auth/register`, {
      username: USERNAME,
      password: PASSWORD,
    });
    const started = Date.now();
    for (let i = 0; i < shape.activities; i++) {
      await post(
        `${l2.url}/assets`,
        {
          name: `fanout-${i}`,
          content_hash: `sha256:${String(i).padStart(64, '0')}`,
          media_type: 'image/png',
          url: `https://cdn.example/fanout-${i}.png`,
          description: `Fan-out asset ${i}`,
          tags: ['bench'],
        },
        String(token),
      );
    }
    const publishSeconds = (Date.now() - started) / 1000;
    const { doneAt, deliveries } = await hosts.done(600_000);
    const seconds = (doneAt - started) / 1000;
    return {
      ...shape,
      hanging,
      seconds,
      publishSeconds,
      deliveries,
      deliveriesPerSecond: deliveries / seconds,
    };
  } finally {
    // The service waits for deliveries in flight (at most their 10 s timeout) before it exits.
    await l2?.stop();
    hosts.stop();
  }
}

/** The floor: every host alive, the bare client in its own process in L2's place, with the environment L2 gets. */
async function floor(shape: FanOutShape): Promise<FanOutResults['floor']> {
  const hosts = await startHosts(shape, 0);
  let client: ChildProcess | null = null;
  try {
    client = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        benchFile('fan-out-floor.ts'),
        JSON.stringify({ ports: hosts.ports, activities: shape.activities }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' } },
    );
    // It exits with 0 once every delivery was answered (the hosts may print a moment later), otherwise it failed.
    const failed = once(client, 'exit').then(([code]) =>
      code === 0
        ? new Promise<never>(() => {})
        : Promise.reject(new Error(`the floor client exited with ${code}`)),
    );
    const limit = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the fan-out floor is not done after 600 s')), 600_000).unref(),
    );
    const [line] = (await Promise.race([
      once(createInterface({ input: client.stdout! }), 'line'),
      failed,
      limit,
    ])) as [string];
    const { startedAt } = JSON.parse(line) as { startedAt: number };
    const { doneAt, deliveries } = await Promise.race([hosts.done(600_000), failed, limit]);
    const seconds = (doneAt - startedAt) / 1000;
    return { seconds, deliveries, deliveriesPerSecond: deliveries / seconds };
  } finally {
    client?.kill('SIGKILL');
    hosts.stop();
  }
}

/** Both runs, each on a fresh store, and the floor. */
export async function fanOut(
  shape: FanOutShape,
  workDir: string,
  startL2: (storePath: string) => Promise<RunningServer>,
): Promise<FanOutResults> {
  const alive = await run(shape, 0, join(workDir, 'fanout-alive', 'l2.sqlite'), startL2);
  const halfHanging = await run(
    shape,
    Math.floor(shape.hosts / 2),
    join(workDir, 'fanout-hanging', 'l2.sqlite'),
    startL2,
  );
  return { alive, halfHanging, floor: await floor(shape) };
}
