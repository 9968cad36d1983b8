// What an `l2` command is, and the refusals every command says the same way.
import { isJobKind, JOB_KINDS } from '../domain/jobs.js';
import { normaliseUsername } from '../domain/user.js';
import type { AccountStateChangeError } from '../application/use-cases/operations/disable-user.js';
import type { Config } from '../composition/config.js';
import type { L2Parts } from '../composition/compose.js';

export type Options = Record<string, string | boolean | undefined>;

export type Command = CommandLine &
  (
    | { run(l2: L2Parts, operands: string[], options: Options): Promise<string> }
    /** A command that needs the configuration only: no store is opened for it. */
    | { fromConfig(config: Config): string }
    /** A command that needs neither the configuration nor a store (a client of another L2). */
    | { runAlone(operands: string[], options: Options): Promise<string> }
  );

export interface CommandLine {
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

/** The job kind `--kind` names, or null for every kind; an unknown kind is refused rather than matching nothing. */
export function kindOf(options: Options): string | null {
  const kind = options.kind;
  if (kind === undefined) return null;
  if (typeof kind !== 'string' || !isJobKind(kind))
    throw new CommandError(`--kind: one of ${JOB_KINDS.join(', ')}`);
  return kind;
}

/** A username as the service writes it (the domain's rule), for what a command says it did; as given if none. */
export function canonical(name: string): string {
  const username = normaliseUsername(name);
  return username.ok ? username.value : name;
}

export function stateChangeRefused(error: AccountStateChangeError, name: string): CommandError {
  return new CommandError(
    error.type === 'not_found' ? `there is no user ${name}` : `${canonical(name)} is deleted`,
  );
}

/** Thrown for a command line that names no command or gives it the wrong operands: exit 2 with usage. */
export class UsageError extends Error {}

/** A command that cannot do what was asked (an unknown user, …): one line, exit 1. */
export class CommandError extends Error {}

/** `l2 tlog verify` found the log misbehaving (a fork, a tile its entries do not give): its lines, exit 3. */
export class LogMisbehavedError extends Error {}
