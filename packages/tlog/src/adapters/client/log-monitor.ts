// One pass of a monitor over L2's transparency log, by its public URL and verifier key: `l2 tlog verify` runs it
// once, the L1 kit's watch runs it periodically. Imports nothing but the log's domain (crypto is given), so it runs
// wherever the kit runs.
import {
  err,
  logOriginOf,
  ok,
  logPrefixOf,
  parseVerifierKey,
  verifyLog,
  type FetchLogResource,
  type LogVerification,
  type LogVerificationFailure,
  type LogVerifierState,
  type NoteVerifierKey,
  type Result,
  type Sha256,
  type VerifyEd25519,
} from '../../domain/index.js';
import { httpLogFetch, LogFetchError } from './http-log-fetch.js';

export interface MonitorInput {
  /** The L2's PUBLIC_URL; the log is under `<it>/tlog/` and its origin is derived from it as L2 does. */
  readonly publicUrl: string;
  /** The verifier key (`GET /tlog/key`), obtained out of band: trusting the log's own answer proves nothing. */
  readonly verifierKey: string;
  /** The state saved by the last pass, or null for a first pass. */
  readonly saved: LogVerifierState | null;
  /** Rebuild every tile from the entry bundles, not only those the saved state had not seen. */
  readonly full?: boolean;
  readonly crypto: Sha256;
  readonly verifyEd25519: VerifyEd25519;
  /** The log's resources; by default fetched over HTTP(S) from the public URL. */
  readonly fetch?: FetchLogResource;
  /** Resources fetched at once (default 8). */
  readonly concurrency?: number;
}

/** Why a pass could not check the log: the input is wrong, or the log could not be read. Nothing is learnt. */
export type MonitorProblem =
  | { readonly type: 'invalid_key'; readonly reason: string }
  | { readonly type: 'invalid_url'; readonly publicUrl: string }
  | { readonly type: 'key_of_another_log'; readonly keyName: string; readonly origin: string }
  | { readonly type: 'unreachable'; readonly reason: string };

export type MonitorOutcome =
  /** The log checked out: save `verification.state` for the next pass. */
  | { readonly kind: 'verified'; readonly verification: LogVerification }
  /**
   * The log misbehaved: a fork, a shrunk tree, a tile that its entries do not give, a bad signature. Keep the
   * saved state (and the evidence in the failure: both checkpoints of a fork) and raise the alarm.
   */
  | { readonly kind: 'misbehaved'; readonly failure: LogVerificationFailure }
  | { readonly kind: 'not_checked'; readonly problem: MonitorProblem };

/** Misbehaviour the log can be blamed for, as opposed to not being reachable. */
const UNREACHABLE: ReadonlySet<LogVerificationFailure['type']> = new Set(['checkpoint_unavailable']);

/** The log at `publicUrl` and its key, or why the two cannot be checked together (the same answer at every pass). */
export function monitoredLog(
  crypto: Sha256,
  publicUrl: string,
  verifierKey: string,
): Result<{ readonly key: NoteVerifierKey; readonly origin: string }, MonitorProblem> {
  const key = parseVerifierKey(crypto, verifierKey.trim());
  if (!key.ok) return err({ type: 'invalid_key', reason: key.error.type });
  const origin = logOriginOf(publicUrl);
  if (origin === null || !/^https?:\/\//i.test(publicUrl)) return err({ type: 'invalid_url', publicUrl });
  if (key.value.name !== origin) return err({ type: 'key_of_another_log', keyName: key.value.name, origin });
  return ok({ key: key.value, origin });
}

/** One pass over the log: never throws for what the log or the network does, only for bugs. */
export async function monitorLog(input: MonitorInput): Promise<MonitorOutcome> {
  const log = monitoredLog(input.crypto, input.publicUrl, input.verifierKey);
  if (!log.ok) return notChecked(log.error);
  const { key, origin } = log.value;
  const fetch = input.fetch ?? httpLogFetch(logPrefixOf(input.publicUrl));
  try {
    const result = await verifyLog({
      crypto: input.crypto,
      verifyEd25519: input.verifyEd25519,
      fetch,
      key,
      origin,
      saved: input.saved,
      full: input.full ?? false,
      concurrency: input.concurrency ?? 8,
    });
    if (result.ok) return { kind: 'verified', verification: result.value };
    if (UNREACHABLE.has(result.error.type))
      return notChecked({ type: 'unreachable', reason: 'no checkpoint is served' });
    return { kind: 'misbehaved', failure: result.error };
  } catch (error) {
    if (error instanceof LogFetchError) return notChecked({ type: 'unreachable', reason: error.message });
    throw error;
  }
}

const notChecked = (problem: MonitorProblem): MonitorOutcome => ({ kind: 'not_checked', problem });

/** One line saying what a pass found, for a person or a log. */
export function describeOutcome(outcome: MonitorOutcome): string {
  switch (outcome.kind) {
    case 'verified': {
      const { state, previousSize, checkedTiles, checkedEntries } = outcome.verification;
      const since = previousSize === null ? 'first check' : `consistent with size ${previousSize}`;
      return (
        `ok: ${state.origin} size ${state.size} root ${state.rootHash} (${since}; ` +
        `${checkedEntries} entries and ${checkedTiles} tiles checked)`
      );
    }
    case 'misbehaved':
      return describeFailure(outcome.failure);
    case 'not_checked':
      return describeProblem(outcome.problem);
  }
}

function describeProblem(problem: MonitorProblem): string {
  switch (problem.type) {
    case 'invalid_key':
      return `not checked: the verifier key does not parse (${problem.reason})`;
    case 'invalid_url':
      return `not checked: ${problem.publicUrl} is not an http(s) URL whose log has an origin`;
    case 'key_of_another_log':
      return `not checked: the key is for ${problem.keyName}, the URL's log is ${problem.origin}`;
    case 'unreachable':
      return `not checked: ${problem.reason}`;
  }
}

function describeFailure(failure: LogVerificationFailure): string {
  switch (failure.type) {
    case 'checkpoint_unavailable':
      return 'not checked: no checkpoint is served';
    case 'checkpoint_refused':
      return `MISBEHAVED: the checkpoint does not verify under the key (${failure.reason.type})`;
    case 'state_of_another_log':
      return `not checked: the saved state is of ${failure.savedOrigin}, this log is ${failure.origin}`;
    case 'tree_shrank':
      return `MISBEHAVED: the log shrank below the size ${failure.saved.size} it signed before`;
    case 'fork':
      return `MISBEHAVED: FORK: the log signed a tree that does not extend the one of size ${failure.saved.size} it signed before`;
    case 'root_mismatch':
      return `MISBEHAVED: the tiles do not give the root of the checkpoint of size ${failure.size}`;
    case 'tile_mismatch':
      return `MISBEHAVED: ${failure.path} is not what the entries give`;
    case 'resource_unavailable':
      return `MISBEHAVED: ${failure.path} is not served though the checkpoint covers it`;
    case 'resource_malformed':
      return `MISBEHAVED: ${failure.path} is malformed (${failure.reason})`;
  }
}

/** The evidence of a fork or a shrunk tree: both signed checkpoints, verbatim, for anyone to check. */
export function evidenceOf(failure: LogVerificationFailure): string | null {
  if (failure.type !== 'fork' && failure.type !== 'tree_shrank') return null;
  return `signed before:\n${failure.saved.checkpoint}\nsigned now:\n${failure.checkpoint}`;
}
