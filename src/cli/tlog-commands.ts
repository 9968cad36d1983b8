// `l2 tlog verify`: checks any L2's transparency log from outside, by its public URL and its verifier key, as a
// user, a peer or an auditor would — no store, no configuration, nothing of the checked L2 trusted but its key.
import { readFileSync } from 'node:fs';
import type { LogVerifierState } from '@l2/tlog';
import {
  describeOutcome,
  evidenceOf,
  httpLogFetch,
  loadVerifierState,
  monitorLog,
  saveVerifierState,
  VerifierStateFileError,
} from '@l2/tlog/client';
import { nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import { CommandError, LogMisbehavedError, UsageError, type Command } from './command.js';
import { canParseUrl } from '../domain/url-parse.js';

/** A verifier key given on the command line, or the file holding one. */
function verifierKeyFrom(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new UsageError('l2: --key is required: the verifier key (GET /tlog/key), or a file holding it');
  if (/^[^\s+]+\+[0-9a-f]{8}\+\S+$/.test(value.trim())) return value.trim();
  try {
    return readFileSync(value, 'utf8').trim();
  } catch {
    throw new CommandError(`--key: ${value} is neither a verifier key nor a readable file`);
  }
}

function loadState(file: string | undefined): LogVerifierState | null {
  if (file === undefined) return null;
  try {
    return loadVerifierState(file);
  } catch (error) {
    if (error instanceof VerifierStateFileError) throw new CommandError(`--state: ${error.message}`);
    throw error;
  }
}

/** The prefix of a mirror given with --from: an http(s) URL, with the one slash the resource paths follow. */
function mirrorPrefix(from: string): string {
  if (!/^https?:\/\/[^/?#]+/i.test(from) || !canParseUrl(from))
    throw new CommandError(`--from: ${from} is not an http(s) URL`);
  return `${from.replace(/\/+$/, '')}/`;
}

export const TLOG_COMMANDS: readonly Command[] = [
  {
    name: 'tlog verify',
    usage: 'l2 tlog verify <PUBLIC_URL> --key <VERIFIER_KEY|FILE> [--state FILE] [--full] [--from URL]',
    help:
      "Checks an L2's transparency log (docs/transparency.md) from outside: fetches its checkpoint and checks the " +
      'signature with the verifier key you give (get it once, out of band: the log cannot vouch for its own key), ' +
      'checks it extends the checkpoint saved in --state last time (a fork or a shrunk log is reported with both ' +
      'checkpoints as evidence), rebuilds every tile it has not seen from the entry bundles, checks the tiles give ' +
      'the root, and saves the new state. --full rebuilds every tile. --from reads the log from another address ' +
      '(a mirror or cache of <PUBLIC_URL>/tlog/), still checked as the log of PUBLIC_URL. Exit 0: the log checked out; 1: it could not ' +
      'be checked (unreachable, bad input); 3: it misbehaved. Needs no store and no configuration.',
    operands: 1,
    required: 1,
    options: {
      key: { type: 'string' },
      state: { type: 'string' },
      full: { type: 'boolean' },
      from: { type: 'string' },
    },
    async runAlone([publicUrl], options) {
      const stateFile = typeof options.state === 'string' ? options.state : undefined;
      const outcome = await monitorLog({
        publicUrl: publicUrl!.replace(/\/+$/, ''),
        verifierKey: verifierKeyFrom(options.key),
        saved: loadState(stateFile),
        full: options.full === true,
        crypto: nodeSha256,
        verifyEd25519,
        ...(typeof options.from === 'string' ? { fetch: httpLogFetch(mirrorPrefix(options.from)) } : {}),
      });
      if (outcome.kind === 'not_checked') throw new CommandError(describeOutcome(outcome));
      if (outcome.kind === 'misbehaved') {
        const evidence = evidenceOf(outcome.failure);
        throw new LogMisbehavedError(`${describeOutcome(outcome)}${evidence ? `\n${evidence}` : ''}`);
      }
      if (stateFile !== undefined) saveVerifierState(stateFile, outcome.verification.state);
      return describeOutcome(outcome);
    },
  },
];
