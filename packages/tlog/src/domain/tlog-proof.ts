import { decodeBase64, encodeBase64, parseDecimal } from './bytes.js';
import { openCheckpoint, type Checkpoint, type CheckpointError } from './checkpoint.js';
import type { Sha256, VerifyEd25519 } from './injected-crypto.js';
import { HASH_SIZE, leafHash } from './merkle-hash.js';
import type { NoteVerifierKey } from './note-keys.js';
import { verifyInclusion } from './proof-verification.js';
import { err, ok, type Result } from './result.js';

/**
 * c2sp.org/tlog-proof@v1: an offline proof that an entry is in a log —
 *
 *   c2sp.org/tlog-proof@v1
 *   [extra <base64>]
 *   index <decimal>
 *   <base64 inclusion proof hash, one per line, from the leaf's sibling up>
 *   <empty line>
 *   <the signed checkpoint, verbatim>
 */

const HEADER = 'c2sp.org/tlog-proof@v1';

export interface TlogProof {
  readonly index: number;
  readonly inclusionProof: readonly Uint8Array[];
  /** The signed checkpoint note, verbatim. */
  readonly checkpoint: string;
  /** Opaque, unauthenticated application data. */
  readonly extra?: Uint8Array;
}

export type TlogProofError =
  | { readonly type: 'malformed_tlog_proof'; readonly reason: string }
  | CheckpointError
  | { readonly type: 'index_beyond_checkpoint'; readonly index: number; readonly size: number }
  | { readonly type: 'inclusion_proof_invalid' };

export function formatTlogProof(proof: TlogProof): string {
  if (!Number.isSafeInteger(proof.index) || proof.index < 0) throw new RangeError('bad index');
  if (proof.inclusionProof.some((hash) => hash.length !== HASH_SIZE)) {
    throw new RangeError('proof hashes have 32 bytes');
  }
  const lines = [HEADER];
  if (proof.extra !== undefined) lines.push(`extra ${encodeBase64(proof.extra)}`);
  lines.push(`index ${proof.index}`, ...proof.inclusionProof.map(encodeBase64));
  return `${lines.join('\n')}\n\n${proof.checkpoint}`;
}

export function parseTlogProof(text: string): Result<TlogProof, TlogProofError> {
  const malformed = (reason: string) => err({ type: 'malformed_tlog_proof' as const, reason });
  const blank = text.indexOf('\n\n');
  if (blank < 0) return malformed('no empty line before the checkpoint');
  const lines = text.slice(0, blank).split('\n');
  const checkpoint = text.slice(blank + 2);
  if (lines.shift() !== HEADER) return malformed(`the first line must be ${HEADER}`);
  let extra: Uint8Array | undefined;
  if (lines[0]?.startsWith('extra ')) {
    const decoded = decodeBase64(lines.shift()!.slice('extra '.length));
    if (decoded === null) return malformed('extra is not base64');
    extra = decoded;
  }
  const indexLine = lines.shift();
  const index = indexLine?.startsWith('index ') ? parseDecimal(indexLine.slice('index '.length)) : null;
  if (index === null) return malformed('expected "index <decimal>"');
  const inclusionProof: Uint8Array[] = [];
  for (const line of lines) {
    const hash = decodeBase64(line);
    if (hash === null || hash.length !== HASH_SIZE) {
      return malformed('a proof line is not base64 of 32 bytes');
    }
    inclusionProof.push(hash);
  }
  return ok({ index, inclusionProof, checkpoint, ...(extra === undefined ? {} : { extra }) });
}

export interface VerifiedTlogProof {
  readonly index: number;
  readonly checkpoint: Checkpoint;
}

/** Checks that `entry` is entry `index` of the log whose checkpoint, signed by `key`, the proof carries. */
export function verifyTlogProof(
  crypto: Sha256,
  verifyEd25519: VerifyEd25519,
  text: string,
  entry: Uint8Array,
  key: NoteVerifierKey,
  origin: string = key.name,
): Result<VerifiedTlogProof, TlogProofError> {
  const parsed = parseTlogProof(text);
  if (!parsed.ok) return parsed;
  const opened = openCheckpoint(parsed.value.checkpoint, key, verifyEd25519, origin);
  if (!opened.ok) return opened;
  const { index, inclusionProof } = parsed.value;
  const { checkpoint } = opened.value;
  if (index >= checkpoint.size) return err({ type: 'index_beyond_checkpoint', index, size: checkpoint.size });
  const leaf = leafHash(crypto, entry);
  if (!verifyInclusion(crypto, index, checkpoint.size, leaf, inclusionProof, checkpoint.rootHash)) {
    return err({ type: 'inclusion_proof_invalid' });
  }
  return ok({ index, checkpoint });
}
