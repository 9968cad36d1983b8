// `l2 <command>`: operator commands that run against the configured store (STORE, SECRETS_DIR, … as the server
// reads them) without starting the server. Each command has --help; errors are one line on stderr and a non-zero
// exit: 2 for a mistake in the command line, 1 for anything that failed.
import { parseArgs } from 'node:util';
import { describeCounts, exportStore, importStore } from './adapters/cli/store-commands.js';
import { TransferFileError } from './adapters/cli/transfer-format.js';
import { StoreUnavailableError } from './application/ports/errors.js';
import { isJobKind, JOB_KINDS } from './domain/jobs.js';
import { accountState, normaliseUsername } from './domain/user.js';
import type { AccountStateChangeError } from './application/use-cases/operations/disable-user.js';
import { InvalidTransferError, StoreNotEmptyError } from './application/ports/store-transfer.js';
import { ConfigError, loadConfig, type Config } from './composition/config.js';
import { buildL2, type L2Parts } from './composition/compose.js';
import { runMaintenance } from './composition/maintenance.js';
import { rotationSteps } from './composition/secret-rotation.js';
import { keyIdOf } from './adapters/crypto/jwt-token-codec.js';

type Options = Record<string, string | boolean | undefined>;

type Command = CommandLine &
  (
    | { run(l2: L2Parts, operands: string[], options: Options): Promise<string> }
    /** A command that needs the configuration only: no store is opened for it. */
    | { fromConfig(config: Config): string }
  );

interface CommandLine {
  /** The words that name it, e.g. `store export`. */
  readonly name: string;
  readonly usage: string;
  readonly help: string;
  /** How many operands it takes after its name, at most. */
  readonly operands: number;
  /** The operands it needs, at least (0 by default). */
  readonly required?: number;
  /** Its options, as node:util's parseArgs takes them. */
  readonly options?: Record<string, { type: 'string' | 'boolean' }>;
}

const COMMANDS: readonly Command[] = [
  {
    name: 'revocations cleanup',
    usage: 'l2 revocations cleanup',
    help: 'Removes revocation and issued-token records whose token has expired, and expired failed-login counters (the server also does this hourly).',
    operands: 0,
    async run(l2) {
      const removed = await runMaintenance(l2);
      return `removed ${removed.revocations} expired revocation records and ${removed.issuedTokens} expired issued-token records`;
    },
  },
  {
    name: 'users list',
    usage: 'l2 users list',
    help: 'Lists the accounts, newest first: username, registration time and state (active or disabled; deleted accounts are in no list).',
    operands: 0,
    async run(l2) {
      const { listUsers } = l2.useCases;
      const lines: string[] = [];
      for (let before: number | undefined; ;) {
        const page = await listUsers.execute({ limit: 100, ...(before === undefined ? {} : { before }) });
        lines.push(
          ...page.items.map((u) => [u.username, u.createdAt.toISOString(), accountState(u)].join('\t')),
        );
        if (page.nextCursor === null) return lines.join('\n') || 'no users';
        before = page.nextCursor;
      }
    },
  },
  {
    name: 'users show',
    usage: 'l2 users show USER',
    help: 'Shows what the service holds about one account (never its password hash or private key): its state, when it registered and was disabled or deleted, its activities, live assets, followers, unexpired tokens and attached L1 servers.',
    operands: 1,
    required: 1,
    async run(l2, [name]) {
      const found = await l2.useCases.describeUser.execute(name!);
      if (!found) throw new CommandError(`there is no user ${name}`);
      const { profile } = found;
      return [
        `username     ${profile.username}`,
        `state        ${accountState(profile)}`,
        `registered   ${profile.createdAt.toISOString()}`,
        `disabled     ${profile.disabledAt?.toISOString() ?? 'no'}`,
        `deleted      ${profile.deletedAt?.toISOString() ?? 'no'}`,
        `activities   ${found.activities}`,
        `live assets  ${found.liveAssets}`,
        `followers    ${found.followers}`,
        `tokens       ${found.sessions} sessions, ${found.scopedTokens} scoped to L1 servers (unexpired, revoked or not)`,
        `L1 servers   ${found.l1Servers.join(', ') || 'none'}`,
      ].join('\n');
    },
  },
  {
    name: 'users disable',
    usage: 'l2 users disable USER',
    help: 'Disables an account at once: every token of it is revoked (each L1 server is sent a revocation notice, as at logout), signing in fails with 401 as for a wrong password, and its actor, profile, outbox, followers and webfinger answer 410 — until `l2 users enable`. Its name, assets, activities and followers are kept. Disabling a disabled account revokes any token left.',
    operands: 1,
    required: 1,
    async run(l2, [name]) {
      const done = await l2.useCases.disableUser.execute(name!);
      if (!done.ok) throw stateChangeRefused(done.error, name!);
      const { revoked, already } = done.value;
      const username = canonical(name!);
      return `${already ? `${username} was disabled already` : `disabled ${username}`}; revoked ${revoked} tokens (L1 servers are told from the queue)`;
    },
  },
  {
    name: 'users enable',
    usage: 'l2 users enable USER',
    help: 'Enables a disabled account again: its actor and webfinger answer again and its owner can sign in. Its tokens stay revoked.',
    operands: 1,
    required: 1,
    async run(l2, [name]) {
      const done = await l2.useCases.enableUser.execute(name!);
      if (!done.ok) throw stateChangeRefused(done.error, name!);
      const username = canonical(name!);
      return done.value.wasDisabled ? `enabled ${username}` : `${username} was not disabled`;
    },
  },
  {
    name: 'tokens revoke',
    usage: 'l2 tokens revoke --user USER',
    help: 'Signs a user out everywhere: revokes every unexpired session token and, with them, the tokens scoped to L1 servers they created (a scoped token never outlives its session); each L1 server is sent a revocation notice, as at logout. The account stays usable: the person signs in again. (--everywhere, from earlier versions, is accepted and changes nothing.)',
    operands: 0,
    options: { user: { type: 'string' }, everywhere: { type: 'boolean' } },
    async run(l2, _operands, options) {
      const username = options.user;
      if (typeof username !== 'string') throw new CommandError('give the user: --user USER');
      const revoked = await l2.useCases.revokeUserTokens.execute({ username });
      if (revoked === null) throw new CommandError(`there is no user ${username}`);
      return `revoked ${revoked} tokens of ${canonical(username)} (L1 servers are told from the queue)`;
    },
  },
  {
    name: 'queue list',
    usage: 'l2 queue list [--kind KIND] [--limit N]',
    help: 'Lists outbound jobs (revocation_notice, activity_delivery, document_delivery) in queue order, 100 by default: id, kind, state (pending, leased: being tried now, abandoned), attempts, when it runs next, its destination and the last error.',
    operands: 0,
    options: { kind: { type: 'string' }, limit: { type: 'string' } },
    async run(l2, _operands, options) {
      const limit = Number(options.limit ?? 100);
      if (!Number.isInteger(limit) || limit < 1)
        throw new CommandError('--limit: give a whole number of at least 1');
      const jobs = await l2.store.queueAdministration.list({ kind: kindOf(options), limit }, new Date());
      return (
        jobs
          .map((j) =>
            [
              j.id,
              j.kind,
              j.leased ? 'leased' : j.state,
              `${j.attempts} attempts`,
              j.runAt.toISOString(),
              j.lane ?? '-',
              j.lastError ?? '',
            ].join('\t'),
          )
          .join('\n') || 'no jobs'
      );
    },
  },
  {
    name: 'queue retry',
    usage: 'l2 queue retry [--kind KIND]',
    help: 'Puts abandoned jobs (of one kind, with --kind) back in the queue, due now, with 24 hours of retries again — after a destination that refused for good was fixed. The running service sends them within its poll interval.',
    operands: 0,
    options: { kind: { type: 'string' } },
    async run(l2, _operands, options) {
      const retried = await l2.store.queueAdministration.retryAbandoned(kindOf(options), new Date());
      return `put ${retried} abandoned jobs back in the queue`;
    },
  },
  {
    name: 'queue drop',
    usage: 'l2 queue drop [--kind KIND]',
    help: 'Deletes abandoned jobs (of one kind, with --kind). Jobs still pending are never dropped.',
    operands: 0,
    options: { kind: { type: 'string' } },
    async run(l2, _operands, options) {
      return `dropped ${await l2.store.queueAdministration.dropAbandoned(kindOf(options))} abandoned jobs`;
    },
  },
  {
    name: 'secret rotate',
    usage: 'l2 secret rotate',
    help: 'Prints the steps that replace the JWT secret without signing anybody out, naming the secrets in use by their key ids. It changes nothing itself.',
    operands: 0,
    fromConfig(config) {
      return rotationSteps(
        keyIdOf(config.jwtSecret),
        config.jwtPreviousSecret && keyIdOf(config.jwtPreviousSecret),
      );
    },
  },
  {
    name: 'store migrate',
    usage: 'l2 store migrate',
    help: "Brings the store's schema up to date — SQLite migrations, MongoDB collections, indexes and counters — and says where it stands. Idempotent; the server does the same at every start.",
    operands: 0,
    async run(l2) {
      return l2.store.describeSchema();
    },
  },
  {
    name: 'store export',
    usage: 'l2 store export [FILE]',
    help:
      'Writes every record of the store (users with their password hashes and private keys, tokens, revocations, ' +
      'attachments, assets, the activity log, followers, keys, queued jobs) as JSON Lines to FILE (created with ' +
      'mode 0600; it must not exist) or to standard output. Guard the file like the store: it holds secrets. The ' +
      'service may keep running: the export is one consistent snapshot.',
    operands: 1,
    async run(l2, [file]) {
      const records = await exportStore(l2.store.transfer, file, new Date());
      // An empty export is most often a mistyped STORE (SQLite creates a new file where it is pointed).
      if (records === 0) console.error('l2: warning: the store holds no records; is STORE the right one?');
      return file && file !== '-' ? `exported ${records} records to ${file}` : '';
    },
  },
  {
    name: 'store import',
    usage: 'l2 store import [FILE]',
    help:
      'Reads an export (FILE, or standard input) into the configured store, which must be new and empty. Stop ' +
      'the service first. On SQLite the import is all or nothing; on MongoDB a failed import leaves a partial ' +
      'database: drop it and import again.',
    operands: 1,
    async run(l2, [file]) {
      return `imported ${describeCounts(await importStore(l2.store.transfer, file))}`;
    },
  },
];

const USAGE = `usage:\n${COMMANDS.map((c) => `  ${c.usage}`).join('\n')}\n\nl2 <command> --help says more.`;

/** The job kind `--kind` names, or null for every kind; an unknown kind is refused rather than matching nothing. */
function kindOf(options: Options): string | null {
  const kind = options.kind;
  if (kind === undefined) return null;
  if (typeof kind !== 'string' || !isJobKind(kind))
    throw new CommandError(`--kind: one of ${JOB_KINDS.join(', ')}`);
  return kind;
}

/** A username as the service writes it (the domain's rule), for what a command says it did; as given if none. */
function canonical(name: string): string {
  const username = normaliseUsername(name);
  return username.ok ? username.value : name;
}

function stateChangeRefused(error: AccountStateChangeError, name: string): CommandError {
  return new CommandError(
    error.type === 'not_found' ? `there is no user ${name}` : `${canonical(name)} is deleted`,
  );
}

/** Thrown for a command line that names no command or gives it the wrong operands: exit 2 with usage. */
class UsageError extends Error {}

/** A command that cannot do what was asked (an unknown user, …): one line, exit 1. */
class CommandError extends Error {}

function parse(args: string[]): { command: Command; operands: string[]; options: Options; help: boolean } {
  const help = args.includes('--help') || args.includes('-h');
  const words = args.filter((a) => a !== '--help' && a !== '-h');
  const command = COMMANDS.find((c) => words.slice(0, c.name.split(' ').length).join(' ') === c.name);
  if (!command)
    throw new UsageError(words.length === 0 ? USAGE : `l2: unknown command '${words.join(' ')}'\n${USAGE}`);
  let parsed: { values: Options; positionals: string[] };
  try {
    parsed = parseArgs({
      args: words.slice(command.name.split(' ').length),
      options: command.options ?? {},
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`l2: ${(error as Error).message.split('\n')[0]}\nusage: ${command.usage}`);
  }
  const operands = parsed.positionals;
  if (operands.length > command.operands)
    throw new UsageError(`l2: too many operands\nusage: ${command.usage}`);
  if (!help && operands.length < (command.required ?? 0))
    throw new UsageError(`l2: missing operand\nusage: ${command.usage}`);
  return { command, operands, options: parsed.values, help };
}

async function run(args: string[]): Promise<number> {
  if (args.length > 0 && args.every((a) => a === '--help' || a === '-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  }
  const { command, operands, options, help } = parsed;
  if (help) {
    process.stdout.write(`usage: ${command.usage}\n\n${command.help}\n`);
    return 0;
  }
  const config = loadConfig();
  if ('fromConfig' in command) {
    process.stdout.write(`${command.fromConfig(config)}\n`);
    return 0;
  }
  // The memory store lives inside the server process: a command run beside it would see a new, empty one.
  if (config.store.kind === 'memory')
    throw new CommandError(
      'STORE=memory: lives inside the server process; point STORE at its sqlite: or mongodb:// store',
    );
  const l2 = await buildL2(config);
  try {
    await l2.store.ready();
    const said = await command.run(l2, operands, options);
    if (said) process.stdout.write(`${said}\n`);
    return 0;
  } finally {
    await l2.store.close();
  }
}

/** Failures an operator can act on, said in one line; anything else is a bug and shows its stack. */
const ONE_LINE = [
  CommandError,
  ConfigError,
  StoreUnavailableError,
  StoreNotEmptyError,
  InvalidTransferError,
  TransferFileError,
];

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    const oneLine =
      ONE_LINE.some((kind) => error instanceof kind) ||
      code === 'EEXIST' ||
      code === 'ENOENT' ||
      code === 'EACCES';
    console.error(oneLine ? `l2: ${(error as Error).message}` : error);
    process.exit(1);
  },
);
