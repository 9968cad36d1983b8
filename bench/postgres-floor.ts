// Scenario 13's floors: the statements L2 sends PostgreSQL for one request, sent by a bare postgres.js pool (the
// driver and version L2 uses, L2's default pool size, prepared statements as L2 prepares them) from as many
// concurrent loops as the load has connections, with no HTTP, no JSON, no token codec, no signing — what the
// database and the driver allow on this machine. L2's rate ÷ this rate is what the rest of L2 costs.
// The statements are L2's own texts, as a server with log_statement = 'all' showed them (docs/performance.md, 13):
//  - verify: the revocation probe by token hash (the whole of what verify asks the store), batched as L2 batches it
//    (postgres-revocation-lookups.ts: the same class, so the same statements);
//  - writes: the revocation probe of the writer's bearer token, the name check, the writer's account, the write
//    budget's counter, the next idx, the append transaction (the tree's row locked, the asset, the live-asset and tag
//    counts, the activity, its leaf hash and the tree's new edge, the writer's activity count, the follower inboxes),
//    and — as L2 answers a write only once a checkpoint covers it — a signing round's statements, shared by the
//    writes that wait together (the state, the new entries, the partial tile's hashes, the checkpoint's update).
// Usage: node --import tsx bench/postgres-floor.ts '<FloorSpec as JSON>'; prints one FloorResult as JSON.
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { processTreeCpuSeconds } from './cpu-time.js';
import { FILE_TAGS } from '../src/adapters/persistence/postgres/postgres-asset-tags.js';
import { ADD_POINTS } from '../src/adapters/persistence/postgres/postgres-rate-limit-counters.js';
import { RevocationLookups } from '../src/adapters/persistence/postgres/postgres-revocation-lookups.js';
import { arrayLiteral } from '../src/adapters/persistence/postgres/postgres-sql.js';
import { appendEntry, edgeBytes, storedEdge } from '../src/adapters/persistence/transparency-hashes.js';

export interface FloorSpec {
  readonly url: string;
  readonly kind: 'verify' | 'writes';
  /** Concurrent loops: the load's connections. */
  readonly loops: number;
  /** Connections in the pool: L2's default (STORE_POOL_SIZE). */
  readonly pool: number;
  readonly seconds: number;
  readonly warmUpSeconds: number;
  /** The SHA-256 (hex) of the token the load presents: what L2 probes the revocations for. */
  readonly tokenHash: string;
  /** writes: the signed-in writer (registered through L2, so that its account and counts exist). */
  readonly writer?: string;
  /** The PostgreSQL server's postmaster: its CPU time (and its backends') is read around the measured phase. */
  readonly postmasterPid: number;
}

export interface FloorResult {
  readonly loops: number;
  readonly pool: number;
  readonly seconds: number;
  readonly operations: number;
  readonly perSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number };
  /** writes: signing rounds' statements run, each shared by the writes that waited for it. */
  readonly checkpointRounds?: number;
  /** CPU seconds of the measured phase: this process's, and the PostgreSQL server's (all its processes). */
  readonly cpu: { readonly client: number; readonly postgres: number };
}

const spec = JSON.parse(process.argv[2] ?? '{}') as FloorSpec;
const sql = postgres(spec.url, {
  max: spec.pool,
  onnotice: () => undefined,
  types: {
    bigint: { to: 20, from: [20], serialize: (v: number) => String(v), parse: (t: string) => Number(t) },
  },
  connection: { application_name: 'l2-bench-floor' },
});
type Runner = Pick<postgres.Sql, 'unsafe'>;
/** As L2 sends every statement: its text and positional parameters, prepared. */
const run = <Row = Record<string, unknown>>(db: Runner, text: string, params: unknown[] = []) =>
  db.unsafe(text, params as never[], { prepare: true }) as unknown as Promise<Row[]>;

/** The revocation probe as L2 sends it: one statement per lookup while few are in flight, batched beyond. */
const lookups = new RevocationLookups(
  { query: (text, params = []) => run(sql, text, [...params]) as never },
  Math.max(1, Math.floor(spec.pool / 2)),
);

async function verify(): Promise<void> {
  await lookups.isRevoked(spec.tokenHash);
}

const ASSET_COLUMNS =
  'name, owner, content_hash, media_type, url, description, alt_text, sensitive, tags, created_at, updated_at, deleted_at';
const FIND_ASSET = `SELECT ${ASSET_COLUMNS} FROM assets WHERE name = $1`;
const FIND_USER =
  'SELECT username, password_hash, public_key_pem, private_key_pem, created_at, deleted_at, disabled_at, profile, ' +
  'profile_version FROM users WHERE username = $1';
const NEXT_IDX = 'SELECT size AS n FROM tlog_state WHERE id = 1';
const LOCK_TREE = 'SELECT size, edge FROM tlog_state WHERE id = 1 FOR UPDATE';
const INSERT_ASSET = `INSERT INTO assets (${ASSET_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
  ON CONFLICT (name) DO NOTHING RETURNING seq`;
const COUNT_LIVE = `WITH total AS (UPDATE counters SET value = value + $2 WHERE name = 'live_assets')
     INSERT INTO user_counts (username, live_assets) VALUES ($1, $2)
     ON CONFLICT (username) DO UPDATE SET live_assets = user_counts.live_assets + $2`;
const INSERT_ACTIVITY =
  'INSERT INTO activities (idx, type, actor, object, published, document) VALUES ($1, $2, $3, $4, $5, $6)';
const KEEP = `
  WITH kept AS (
    INSERT INTO tlog_hashes (level, idx, hash) SELECT * FROM unnest($1::integer[], $2::bigint[], $3::bytea[]))
  UPDATE tlog_state SET size = $4, edge = $5 WHERE id = 1`;
const COUNT_ACTIVITY = `INSERT INTO user_counts (username, activities) VALUES ($1, 1)
     ON CONFLICT (username) DO UPDATE SET activities = user_counts.activities + 1`;
const INBOXES = `SELECT COALESCE(shared_inbox, inbox) AS inbox FROM followers WHERE username = $1
     GROUP BY 1 ORDER BY MIN(seq)`;
const STATE = `SELECT s.size, c.origin, c.checkpoint_size, c.checkpoint
       FROM tlog_state AS s CROSS JOIN tlog_signed AS c WHERE s.id = 1 AND c.id = 1`;
const ENTRIES = `SELECT convert_to(document, 'UTF8') AS entry FROM activities WHERE idx >= $1 AND idx < $2 ORDER BY idx`;
const HASHES = 'SELECT hash FROM tlog_hashes WHERE level = $1 AND idx >= $2 AND idx < $3 ORDER BY idx';
const RECORD_CHECKPOINT = `UPDATE tlog_signed SET checkpoint_size = $1, checkpoint = $2
       WHERE id = 1 AND (checkpoint_size IS NULL OR checkpoint_size < $1)`;

/** The writer's latest activity as L2 wrote it: each floor write stores one of its size and shape. */
const [template] =
  spec.kind === 'writes'
    ? await run<{ object: string; document: string }>(
        sql,
        'SELECT object, document FROM activities WHERE actor = $1 ORDER BY idx DESC LIMIT 1',
        [spec.writer],
      )
    : [];
if (spec.kind === 'writes' && template === undefined) throw new Error(`${spec.writer} has written nothing`);

let counter = 0;
const TAGS = ['bench', 'harbour', 'sunset'];

/** One asset write's statements, as L2 sends them for `POST /assets` (a new asset). */
async function write(): Promise<void> {
  const writer = spec.writer!;
  // The same length as the load's names (b<pid>_<n>), so that the stored document keeps its size.
  const name = `f${process.pid}_${(counter++).toString(36)}`;
  const now = new Date();
  await lookups.isRevoked(spec.tokenHash);
  await run(sql, FIND_ASSET, [name]);
  await run(sql, FIND_USER, [writer]);
  await run(sql, ADD_POINTS, [`asset_write_user:${writer}`, 1, new Date(now.getTime() + 60_000), now]);
  await run(sql, NEXT_IDX);
  await sql.begin(async (tx) => {
    const [tree] = await run<{ size: number; edge: Buffer }>(tx, LOCK_TREE);
    const idx = tree!.size;
    const [asset] = await run<{ seq: number }>(tx, INSERT_ASSET, [
      name,
      writer,
      `sha256:${(counter * 2654435761).toString(16).padStart(64, '0').slice(-64)}`,
      'image/png',
      `https://cdn.example/assets/${name}.png`,
      `A bench asset, ${name}: a sunset over the harbour, photographed from the old lighthouse.`,
      null,
      false,
      JSON.stringify(TAGS),
      now,
      now,
      null,
    ]);
    await run(tx, COUNT_LIVE, [writer, 1]);
    await run(tx, FILE_TAGS, [arrayLiteral(TAGS), asset!.seq]);
    const document = template!.document.replaceAll(template!.object, name);
    await run(tx, INSERT_ACTIVITY, [idx, 'Create', writer, name, now, document]);
    // The real leaf hash and edge (L2's own hashing, microseconds): the log stays consistent.
    const { edge, completed } = appendEntry(storedEdge(idx, tree!.edge), idx, document);
    await run(tx, KEEP, [
      arrayLiteral(completed.map((c) => c.level)),
      arrayLiteral(completed.map((c) => c.index)),
      arrayLiteral(completed.map((c) => c.hash)),
      edge.size,
      edgeBytes(edge),
    ]);
    await run(tx, COUNT_ACTIVITY, [writer]);
    await run(tx, INBOXES, [writer]);
  });
  await checkpointCovering();
}

let rounds = 0;
let signedUpTo: number | null = null;

/** A signing round's statements: no signature (the note is written back unchanged, so no row moves). */
async function checkpointRound(): Promise<void> {
  rounds++;
  const [state] = await run<{ size: number; checkpoint_size: number | null; checkpoint: string | null }>(
    sql,
    STATE,
  );
  const { size, checkpoint_size: kept, checkpoint } = state!;
  const from = signedUpTo ?? kept ?? 0;
  await run(sql, ENTRIES, [from, size]);
  const tile = Math.floor(size / 256) * 256;
  if (tile < size) await run(sql, HASHES, [0, tile, size]);
  await run(sql, RECORD_CHECKPOINT, [kept ?? 0, checkpoint ?? '']);
  signedUpTo = size;
}

let signing: Promise<void> | null = null;
let nextRound: Promise<void> | null = null;

/** Resolves once a round that started after this call has ended: writes waiting together share one round. */
function checkpointCovering(): Promise<void> {
  if (signing === null) {
    signing = checkpointRound().finally(() => (signing = null));
    return signing;
  }
  nextRound ??= signing.then(() => {
    nextRound = null;
    return checkpointCovering();
  });
  return nextRound;
}

/** `loops` loops doing `operation` back to back for `seconds`: operations done and their latencies. */
async function phase(operation: () => Promise<void>, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const loop = async () => {
    while (process.hrtime.bigint() < until) {
      const t = process.hrtime.bigint();
      await operation();
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: spec.loops }, loop));
  return latencies;
}

const operation = spec.kind === 'verify' ? verify : write;
if (spec.warmUpSeconds > 0) await phase(operation, spec.warmUpSeconds);
await sleep(250);
rounds = 0;
const started = process.hrtime.bigint();
const cpuBefore = { client: process.cpuUsage(), postgres: processTreeCpuSeconds(spec.postmasterPid) };
const latencies = await phase(operation, spec.seconds);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const clientCpu = process.cpuUsage(cpuBefore.client);
const cpu = {
  client: (clientCpu.user + clientCpu.system) / 1e6,
  postgres: processTreeCpuSeconds(spec.postmasterPid) - cpuBefore.postgres,
};
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
const result: FloorResult = {
  loops: spec.loops,
  pool: spec.pool,
  seconds,
  operations: latencies.length,
  perSecond: latencies.length / seconds,
  latencyMs: { p50: at(0.5), p99: at(0.99) },
  ...(spec.kind === 'writes' ? { checkpointRounds: rounds } : {}),
  cpu,
};
await sql.end({ timeout: 5 });
console.log(JSON.stringify(result));
