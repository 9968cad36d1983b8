// The monitor's state in a JSON file: what `l2 tlog verify --state` and the L1 kit's watch keep between passes, in
// one format, so either can pick up the other's file. Imports nothing but the log's domain and node:fs.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseVerifierState, type LogVerifierState } from '../../domain/index.js';

/** The file is not a state a monitor wrote: refused rather than overwritten, since it may be someone's evidence. */
export class VerifierStateFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file} is not a state this command wrote${reason}`);
    this.name = 'VerifierStateFileError';
  }
}

/** The saved state, or null when the file does not exist yet (a first pass). */
export function loadVerifierState(file: string): LogVerifierState | null {
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new VerifierStateFileError(file, ' (not JSON)');
  }
  const state = parseVerifierState(parsed);
  if (state === null) throw new VerifierStateFileError(file, '');
  return state;
}

/** Written aside and renamed into place: a pass interrupted mid-write never leaves half a state. */
export function saveVerifierState(file: string, state: LogVerifierState): void {
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(aside, file);
}
