// `l2 <command>`: operator commands that run against the configured store (STORE, SECRETS_DIR, … as the server
// reads them) without starting the server. Each command has --help; errors are one line on stderr and a non-zero
// exit: 2 for a mistake in the command line, 1 for anything that failed.
import { parseArgs } from 'node:util';
import { TransferFileError } from './adapters/cli/transfer-format.js';
import { StoreUnavailableError } from './application/ports/errors.js';
import { InvalidTransferError, StoreNotEmptyError } from './application/ports/store-transfer.js';
import { ACCOUNT_COMMANDS } from './cli/account-commands.js';
import { CommandError, LogMisbehavedError, UsageError, type Command, type Options } from './cli/command.js';
import { DOMAIN_COMMANDS } from './cli/domain-commands.js';
import { OPERATIONS_COMMANDS } from './cli/operations-commands.js';
import { TLOG_COMMANDS } from './cli/tlog-commands.js';
import { ConfigError, loadConfig } from './composition/config.js';
import { buildL2 } from './composition/compose.js';
import { storeDriver } from './composition/store-drivers.js';

const COMMANDS: readonly Command[] = [
  ...ACCOUNT_COMMANDS,
  ...OPERATIONS_COMMANDS,
  ...DOMAIN_COMMANDS,
  ...TLOG_COMMANDS,
];

const USAGE = `usage:\n${COMMANDS.map((c) => `  ${c.usage}`).join('\n')}\n\nl2 <command> --help says more.`;

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
  if ('runAlone' in command) {
    try {
      process.stdout.write(`${await command.runAlone(operands, options)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) {
        console.error(error.message);
        return 2;
      }
      if (!(error instanceof LogMisbehavedError)) throw error;
      console.error(`l2: ${error.message}`);
      return 3;
    }
  }
  const config = loadConfig();
  if ('fromConfig' in command) {
    process.stdout.write(`${command.fromConfig(config)}\n`);
    return 0;
  }
  // The memory store lives inside the server process: a command run beside it would see a new, empty one.
  const refused = (await storeDriver(config.store)).commandsRefused;
  if (refused !== undefined) throw new CommandError(refused);
  const l2 = await buildL2(config);
  try {
    await l2.store.ready();
    const said = await command.run(l2, operands, options);
    if (said) process.stdout.write(`${said}\n`);
    return 0;
  } catch (error) {
    // An operand the command could read only with the store's help (a domain rule's HOST): exit 2 too.
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
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
