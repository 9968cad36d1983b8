import { decodeBase64, decodeUtf8, encodeBase64, parseDecimal } from './bytes.js';
import type { VerifyEd25519 } from './injected-crypto.js';
import { HASH_SIZE } from './merkle-hash.js';
import type { NoteSigner, NoteVerifierKey } from './note-keys.js';
import { err, ok, type Result } from './result.js';
import { openNote, signNote, type NoteError } from './signed-note.js';

/**
 * Checkpoints (c2sp.org/tlog-checkpoint): the note text
 *
 *   <origin>
 *   <tree size, decimal, no leading zero>
 *   <root hash, base64>
 *   [extension lines, each non-empty]
 *
 * signed as a signed note. L2 signs with the origin as key name and writes no extension line.
 */

export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly rootHash: Uint8Array;
  readonly extensions: readonly string[];
}

export type CheckpointError =
  | { readonly type: 'malformed_checkpoint'; readonly reason: string }
  | { readonly type: 'origin_mismatch'; readonly expected: string; readonly actual: string }
  | NoteError;

export function formatCheckpoint(checkpoint: Checkpoint): string {
  const lines = [
    checkpoint.origin,
    String(checkpoint.size),
    encodeBase64(checkpoint.rootHash),
    ...checkpoint.extensions,
  ];
  if (lines.some((line) => line === '' || line.includes('\n'))) {
    throw new RangeError('checkpoint lines are non-empty single lines');
  }
  if (!Number.isSafeInteger(checkpoint.size) || checkpoint.size < 0) throw new RangeError('bad tree size');
  if (checkpoint.rootHash.length !== HASH_SIZE) throw new RangeError('a root hash has 32 bytes');
  return `${lines.join('\n')}\n`;
}

export function parseCheckpoint(text: string): Result<Checkpoint, CheckpointError> {
  const malformed = (reason: string) => err({ type: 'malformed_checkpoint' as const, reason });
  if (!text.endsWith('\n')) return malformed('the text must end with a newline');
  const [origin, sizeText, rootText, ...extensions] = text.slice(0, -1).split('\n');
  if (rootText === undefined) return malformed('fewer than three lines');
  if (origin === '') return malformed('empty origin');
  const size = parseDecimal(sizeText!);
  if (size === null) return malformed('the tree size is not a decimal number without leading zeros');
  const rootHash = decodeBase64(rootText);
  if (rootHash === null || rootHash.length !== HASH_SIZE) {
    return malformed('the root hash is not base64 of 32 bytes');
  }
  if (extensions.some((line) => line === '')) return malformed('an empty extension line');
  return ok({ origin: origin!, size, rootHash, extensions });
}

/** The signed checkpoint L2 serves: the checkpoint's text signed by the log key. */
export const signCheckpoint = (checkpoint: Checkpoint, signer: NoteSigner): string =>
  signNote(formatCheckpoint(checkpoint), [signer]);

export interface OpenedCheckpoint {
  readonly checkpoint: Checkpoint;
  /** The signed note, verbatim (kept as evidence, included in tlog-proofs). */
  readonly note: string;
}

/**
 * A checkpoint signed by `key` for the log `origin` (by default the key's name, as for L2's log),
 * or why not: a bad or missing signature, a malformed text, another log's origin.
 */
export function openCheckpoint(
  note: string | Uint8Array,
  key: NoteVerifierKey,
  verifyEd25519: VerifyEd25519,
  origin: string = key.name,
): Result<OpenedCheckpoint, CheckpointError> {
  const opened = openNote(note, [key], verifyEd25519);
  if (!opened.ok) return opened;
  const parsed = parseCheckpoint(opened.value.text);
  if (!parsed.ok) return parsed;
  if (parsed.value.origin !== origin) {
    return err({ type: 'origin_mismatch', expected: origin, actual: parsed.value.origin });
  }
  // openNote has checked the bytes are UTF-8, so decoding them cannot fail here.
  return ok({ checkpoint: parsed.value, note: typeof note === 'string' ? note : decodeUtf8(note)! });
}

/**
 * The checkpoint a signed note carries, its signatures not checked: for a holder that already trusts the note (the
 * store checking its own copy against its entries), never for one received.
 */
export function checkpointInNote(note: string): Result<Checkpoint, CheckpointError> {
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return err({ type: 'malformed_checkpoint', reason: 'no blank line before the signatures' });
  return parseCheckpoint(note.slice(0, split + 1));
}
