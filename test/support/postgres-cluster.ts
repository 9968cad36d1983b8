// A real PostgreSQL server for the tests: the one at PG_TEST_URL when given, else a throwaway cluster started here
// from Debian's `postgresql` binaries (initdb into a temporary folder, a free port on 127.0.0.1, run as an
// unprivileged user when the tests run as root, since PostgreSQL refuses to run as root). Streaming standbys for the
// failover tests come from the same binaries (pg_basebackup -R).
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import {
  scratchDatabase,
  withDatabase,
  type ScratchDatabase,
} from '../../src/adapters/persistence/postgres/postgres-scratch-databases.js';
import { DEFAULT_STORE_SETTINGS } from '../../src/adapters/persistence/store-driver.js';

/** The superuser the throwaway clusters are made with (trust authentication, loopback only). */
const SUPERUSER = 'l2';
/** The group whose members a throwaway cluster asks for their password. */
const PASSWORD_GROUP = 'l2_password_users';

/** Where Debian (or PG_BIN) keeps initdb, pg_ctl and pg_basebackup: the newest version installed. */
export function postgresBinaries(): string | null {
  const given = process.env.PG_BIN;
  if (given) return existsSync(join(given, 'initdb')) ? given : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** The uid and gid to run PostgreSQL as: ours, or — as root — the `postgres` account (else `nobody`). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {
      // Try the next account.
    }
  }
  throw new Error(
    'Running as root, and neither a postgres nor a nobody account exists to run PostgreSQL as.',
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function run(bin: string, args: string[], owner: { uid: number; gid: number } | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...owner, stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}

/** One PostgreSQL server process of a throwaway cluster: a primary, or a standby streaming from one. */
export class PostgresNode {
  private constructor(
    private readonly bin: string,
    private readonly owner: { uid: number; gid: number } | undefined,
    readonly dir: string,
    readonly port: number,
  ) {}

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** `postgres://l2@127.0.0.1:<port>/<database>`. */
  url(database = 'postgres'): string {
    return `postgres://${SUPERUSER}@127.0.0.1:${this.port}/${database}`;
  }

  /** A new primary: initdb, then started. `settings` go into postgresql.conf. */
  static async primary(settings: Record<string, string> = {}): Promise<PostgresNode> {
    const bin = postgresBinaries();
    if (bin === null) throw new Error('No PostgreSQL binaries (apt-get install postgresql, or set PG_BIN).');
    const owner = runAs();
    const node = new PostgresNode(bin, owner, PostgresNode.folder(owner), await freePort());
    await run(
      join(bin, 'initdb'),
      ['-D', node.dataDir, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
      owner,
    );
    node.configure({ wal_level: 'replica', max_wal_senders: '10', ...settings });
    // Members of PASSWORD_GROUP must give their password (scram), first-match before initdb's trust lines: the tests
    // of what is never shown run with a password that matters.
    const hba = join(node.dataDir, 'pg_hba.conf');
    writeFileSync(
      hba,
      `host all +${PASSWORD_GROUP} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}` +
        `host replication ${SUPERUSER} 127.0.0.1/32 trust\n`,
    );
    if (owner) chownSync(hba, owner.uid, owner.gid);
    await node.start();
    return node;
  }

  /** A streaming standby of `primary` (pg_basebackup -R), started; `name` is its application_name. */
  static async standbyOf(primary: PostgresNode, name: string): Promise<PostgresNode> {
    const node = new PostgresNode(
      primary.bin,
      primary.owner,
      PostgresNode.folder(primary.owner),
      await freePort(),
    );
    // -R writes primary_conninfo (from -d, application_name included: what synchronous_standby_names names) into
    // postgresql.auto.conf, which postgresql.conf cannot override.
    await run(
      join(primary.bin, 'pg_basebackup'),
      [
        '-d',
        `host=127.0.0.1 port=${primary.port} user=${SUPERUSER} application_name=${name}`,
        '-D',
        node.dataDir,
        '-R',
        '-X',
        'stream',
      ],
      primary.owner,
    );
    await node.start();
    return node;
  }

  private static folder(owner: { uid: number; gid: number } | undefined): string {
    const dir = mkdtempSync(join(tmpdir(), 'l2-pg-'));
    if (owner) chownSync(dir, owner.uid, owner.gid);
    return dir;
  }

  /** Appends settings to postgresql.conf (the last one of a name wins); a restart or reload applies them. */
  configure(settings: Record<string, string>): void {
    const lines = Object.entries(settings).map(([name, value]) => `${name} = ${value}\n`);
    const file = join(this.dataDir, 'postgresql.conf');
    appendFileSync(file, lines.join(''));
    if (this.owner) chownSync(file, this.owner.uid, this.owner.gid);
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      `-c listen_addresses=127.0.0.1`,
      // Durability against a crash of this process is kept (the WAL is written); only the machine's own crash is
      // not guarded against, which no test makes.
      `-c fsync=off`,
      `-c synchronous_commit=on`,
      `-c full_page_writes=off`,
      `-c max_connections=200`,
    ].join(' ');
    await run(
      join(this.bin, 'pg_ctl'),
      ['-D', this.dataDir, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '120', 'start'],
      this.owner,
    );
  }

  /** `mode`: `fast` (clients are disconnected, a clean shutdown) or `immediate` (as a crash would). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await run(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', 'stop'], this.owner);
  }

  async promote(): Promise<void> {
    await run(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-w', 'promote'], this.owner);
  }

  /** Stops the server if it runs and removes its folder. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A test-wide server: PG_TEST_URL's, or one throwaway primary started on first use and stopped at exit. */
let shared: Promise<string> | undefined;

/** The URL of the test-wide server (its `postgres` database): PG_TEST_URL, or a throwaway cluster started now. */
export function postgresServerUrl(): Promise<string> {
  shared ??= (async () => {
    const given = process.env.PG_TEST_URL;
    if (given) return given;
    const node = await PostgresNode.primary();
    process.once('exit', () => {
      try {
        execFileSync(join(postgresBinaries()!, 'pg_ctl'), ['-D', node.dataDir, '-m', 'immediate', 'stop'], {
          ...runAs(),
          stdio: 'ignore',
        });
      } catch {
        // Already stopped.
      }
      rmSync(node.dir, { recursive: true, force: true });
    });
    return node.url();
  })();
  return shared;
}

/**
 * Whether the PostgreSQL tests can run: a server at PG_TEST_URL, or the binaries to start one. Under CI=true a
 * missing PostgreSQL is an error (the suite fails), never a skip.
 */
export function postgresAvailable(): boolean {
  const available = Boolean(process.env.PG_TEST_URL) || postgresBinaries() !== null;
  if (!available && process.env.CI === 'true')
    throw new Error('CI=true but no PostgreSQL: set PG_TEST_URL or apt-get install postgresql.');
  return available;
}

/** What the PostgreSQL tests print, once, when they are skipped. */
export const POSTGRES_SKIPPED =
  'PostgreSQL tests skipped: set PG_TEST_URL, or apt-get install postgresql (the tests start their own cluster)';

/** A fresh, empty, migrated database on the test-wide server (dropped when `drop` is called). */
export async function freshDatabase(): Promise<ScratchDatabase> {
  return scratchDatabase(await postgresServerUrl());
}

/** A database of its own for a role of its own that signs in with a password, as an operator's would. */
export interface PasswordDatabase extends ScratchDatabase {
  readonly password: string;
  /** The URL without the database (`…@host:port`), to write other forms of it. */
  readonly server: string;
  readonly database: string;
}

/**
 * A new, empty database (not migrated: L2 migrates it on start) owned by a new role with a password, on the
 * test-wide server. On a throwaway cluster the password is checked (scram); at PG_TEST_URL, as that server says.
 */
export async function passwordDatabase(): Promise<PasswordDatabase> {
  const serverUrl = await postgresServerUrl();
  const admin = openPostgresPersistence(serverUrl, { ...DEFAULT_STORE_SETTINGS, poolSize: 1 }).database;
  const suffix = randomBytes(6).toString('hex');
  const role = `l2_role_${suffix}`;
  const database = `l2_owned_${suffix}`;
  // Letters, digits and URL-reserved characters: redaction must find it as written and as percent-encoded.
  const password = `pw/${randomBytes(9).toString('base64url')}@:%`;
  try {
    await admin.query(
      `DO $$ BEGIN CREATE ROLE ${PASSWORD_GROUP}; EXCEPTION WHEN duplicate_object THEN END $$`,
    );
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}' IN ROLE ${PASSWORD_GROUP}`);
    await admin.query(
      `CREATE DATABASE ${database} OWNER ${role} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`,
    );
  } finally {
    await admin.close();
  }
  const { host } = new URL(serverUrl.replace(/^postgres(ql)?:/, 'http:'));
  const server = `postgres://${role}:${encodeURIComponent(password)}@${host}`;
  return {
    url: withDatabase(server, database),
    password,
    server,
    database,
    drop: async () => {
      const dropper = openPostgresPersistence(serverUrl, { ...DEFAULT_STORE_SETTINGS, poolSize: 1 }).database;
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await dropper.query(`DROP ROLE IF EXISTS ${role}`);
      } finally {
        await dropper.close();
      }
    },
  };
}
