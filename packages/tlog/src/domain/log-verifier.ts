import { bytesEqual, decodeBase64, encodeBase64 } from './bytes.js';
import { openCheckpoint, type Checkpoint, type CheckpointError } from './checkpoint.js';
import type { Sha256, VerifyEd25519 } from './injected-crypto.js';
import type { NoteVerifierKey } from './note-keys.js';
import { consistencyProofSpans, proveConsistency } from './proofs.js';
import { verifyConsistency } from './proof-verification.js';
import { err, ok, type Result } from './result.js';
import { keptHashesOfSpans, treeHash, type LeafSpan } from './subtree-hashes.js';
import { FULL_TILE_WIDTH } from './tile-constants.js';
import { checkTilesAgainstEntries, type FetchLogResource, type TileCheckFailure } from './tile-derivation.js';
import { tileHashReader, TileUnavailableError } from './tile-hash-reader.js';
import { tileWidthInTree } from './tile-layout.js';
import { formatTilePath, hashTile } from './tile-path.js';

/**
 * The monitor behind `l2 tlog verify` and the L1 kit's `watch`: one pass over a tiled log.
 *
 *  1. fetch the checkpoint and check its signature by the log's key;
 *  2. refuse a tree smaller than the one seen last time, or the same size with another root;
 *  3. rebuild every tile not seen last time from the entry bundles (all of them with `full`);
 *  4. check the tiles give the checkpoint's root, and the root seen last time at its size —
 *     the consistency proof between the two checkpoints, computed from the checked tiles.
 *
 * I/O is injected (`fetch`); the state is a plain JSON-able object the caller stores between runs.
 */

export interface LogVerifierState {
  readonly origin: string;
  readonly size: number;
  /** base64 */
  readonly rootHash: string;
  /** The signed checkpoint verified last, verbatim: evidence if the log later contradicts it. */
  readonly checkpoint: string;
}

export interface VerifyLogInput {
  readonly crypto: Sha256;
  readonly verifyEd25519: VerifyEd25519;
  /** Fetches `checkpoint`, `tile/…` and `tile/entries/…` under the log's prefix. */
  readonly fetch: FetchLogResource;
  readonly key: NoteVerifierKey;
  /** The log's origin; by default the key's name, as L2 signs. */
  readonly origin?: string;
  readonly saved?: LogVerifierState | null;
  /** Rebuild every tile, not only those the saved state has not seen. */
  readonly full?: boolean;
  /** Resources fetched at once (default 8). */
  readonly concurrency?: number;
}

export interface LogVerification {
  readonly state: LogVerifierState;
  readonly previousSize: number | null;
  readonly checkedTiles: number;
  readonly checkedEntries: number;
}

export type LogVerificationFailure =
  | { readonly type: 'checkpoint_unavailable' }
  | { readonly type: 'checkpoint_refused'; readonly reason: CheckpointError }
  | { readonly type: 'state_of_another_log'; readonly savedOrigin: string; readonly origin: string }
  | { readonly type: 'tree_shrank'; readonly saved: LogVerifierState; readonly checkpoint: string }
  | { readonly type: 'fork'; readonly saved: LogVerifierState; readonly checkpoint: string }
  | { readonly type: 'root_mismatch'; readonly size: number }
  | TileCheckFailure;

export async function verifyLog(
  input: VerifyLogInput,
): Promise<Result<LogVerification, LogVerificationFailure>> {
  const { crypto, fetch, key, saved = null } = input;
  const noteBytes = await fetch('checkpoint');
  if (noteBytes === null) return err({ type: 'checkpoint_unavailable' });
  const opened = openCheckpoint(noteBytes, key, input.verifyEd25519, input.origin ?? key.name);
  if (!opened.ok) return err({ type: 'checkpoint_refused', reason: opened.error });
  const { checkpoint, note } = opened.value;

  if (saved !== null) {
    if (saved.origin !== checkpoint.origin) {
      return err({ type: 'state_of_another_log', savedOrigin: saved.origin, origin: checkpoint.origin });
    }
    if (checkpoint.size < saved.size) return err({ type: 'tree_shrank', saved, checkpoint: note });
    if (checkpoint.size === saved.size && encodeBase64(checkpoint.rootHash) !== saved.rootHash) {
      return err({ type: 'fork', saved, checkpoint: note });
    }
  }
  const seenSize = saved?.size ?? 0;
  const proveFrom = seenSize > 0 && seenSize < checkpoint.size ? seenSize : null;
  const spans: LeafSpan[] = checkpoint.size === 0 ? [] : [{ start: 0, end: checkpoint.size }];
  if (proveFrom !== null) spans.push(...consistencyProofSpans(proveFrom, checkpoint.size));

  const checked = await checkTilesAgainstEntries({
    crypto,
    fetch,
    fromSize: input.full ? 0 : seenSize,
    size: checkpoint.size,
    keep: tilePathsHolding(spans, checkpoint.size),
    concurrency: input.concurrency ?? 8,
  });
  if (!checked.ok) return checked;

  const roots = await checkRoots(input, checkpoint, checked.value.kept, proveFrom, saved, note);
  if (!roots.ok) return roots;
  return ok({
    state: {
      origin: checkpoint.origin,
      size: checkpoint.size,
      rootHash: encodeBase64(checkpoint.rootHash),
      checkpoint: note,
    },
    previousSize: saved?.size ?? null,
    checkedTiles: checked.value.checkedTiles,
    checkedEntries: checked.value.checkedEntries,
  });
}

/** The paths of the tiles (at their width in the tree of `size`) that hold the hashes of these spans. */
function tilePathsHolding(spans: readonly LeafSpan[], size: number): Set<string> {
  return new Set(
    keptHashesOfSpans(spans).map(({ level, index }) => {
      const tileIndex = Math.floor(index / FULL_TILE_WIDTH);
      return formatTilePath(hashTile(level, tileIndex, tileWidthInTree(size, level, tileIndex)));
    }),
  );
}

/**
 * Roots from the checked tiles (tiles not rebuilt this time — unchanged since the saved state —
 * are fetched): the tree's must be the checkpoint's, and a consistency proof from them must link
 * the saved root to it.
 */
async function checkRoots(
  input: VerifyLogInput,
  checkpoint: Checkpoint,
  kept: ReadonlyMap<string, Uint8Array>,
  proveFrom: number | null,
  saved: LogVerifierState | null,
  note: string,
): Promise<Result<null, LogVerificationFailure>> {
  const { crypto, fetch } = input;
  const reader = tileHashReader(checkpoint.size, (_tile, path) =>
    Promise.resolve(kept.get(path) ?? fetch(path)),
  );
  try {
    const root = await treeHash(crypto, reader, checkpoint.size);
    if (!bytesEqual(root, checkpoint.rootHash)) return err({ type: 'root_mismatch', size: checkpoint.size });
    if (proveFrom === null || saved === null) return ok(null);
    const proof = await proveConsistency(crypto, reader, proveFrom, checkpoint.size);
    const savedRoot = decodeBase64(saved.rootHash) ?? new Uint8Array();
    if (!verifyConsistency(crypto, proveFrom, checkpoint.size, proof, savedRoot, checkpoint.rootHash)) {
      return err({ type: 'fork', saved, checkpoint: note });
    }
    return ok(null);
  } catch (error) {
    if (!(error instanceof TileUnavailableError)) throw error;
    return err(
      error.reason === 'not_found'
        ? { type: 'resource_unavailable', path: error.path }
        : { type: 'resource_malformed', path: error.path, reason: 'wrong size' },
    );
  }
}

/** A saved state read back from JSON, or null when it is not one. */
export function parseVerifierState(value: unknown): LogVerifierState | null {
  if (typeof value !== 'object' || value === null) return null;
  const { origin, size, rootHash, checkpoint } = value as Record<string, unknown>;
  if (typeof origin !== 'string' || typeof rootHash !== 'string' || typeof checkpoint !== 'string') {
    return null;
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return null;
  if (decodeBase64(rootHash)?.length !== 32) return null;
  return { origin, size, rootHash, checkpoint };
}
