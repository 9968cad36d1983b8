// What every store does to keep the transparency log inside the activity log's append (docs/adr/0013): the
// entry's leaf hash, the hashes of the tiles it completes, the new right edge — with the domain's Merkle code and
// node:crypto's SHA-256 (the persistence adapters may not import the crypto adapter, so it is repeated here).
import { createHash } from 'node:crypto';
import { activityEntryBytes, MAX_ACTIVITY_ENTRY_BYTES } from '../../domain/activity.js';
import {
  appendToRightEdge,
  decodeRightEdge,
  encodeRightEdge,
  leafHash,
  type RightEdge,
  type RightEdgeAppend,
  type Sha256,
} from '@l2/tlog';

export const storeSha256: Sha256 = {
  sha256(...parts) {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(part);
    return new Uint8Array(hash.digest());
  },
};

/** Raised inside an append (rolling it back) for an entry a bundle could not hold: the caller checks first. */
export class EntryTooLargeError extends Error {
  constructor(idx: number, bytes: number) {
    super(`activity ${idx}: an entry of ${bytes} bytes exceeds ${MAX_ACTIVITY_ENTRY_BYTES}`);
    this.name = 'EntryTooLargeError';
  }
}

/** The leaf hash of a stored document's text, refusing one the log cannot hold. */
export function leafHashOfEntry(idx: number, text: string): Uint8Array {
  const bytes = activityEntryBytes(text);
  if (bytes.length > MAX_ACTIVITY_ENTRY_BYTES) throw new EntryTooLargeError(idx, bytes.length);
  return leafHash(storeSha256, bytes);
}

/**
 * The tree after entry `idx` (whose text is `text`) joins the tree of `edge`: the new edge and the hashes that
 * became final (its leaf hash, and the root of each tile it completed). Throws when `idx` is not the next position:
 * the hashes would be out of step with the activities, which only a bug or a changed store can cause.
 */
export function appendEntry(edge: RightEdge, idx: number, text: string): RightEdgeAppend {
  if (edge.size !== idx) {
    throw new Error(`the transparency log holds ${edge.size} entries, but activity ${idx} is being appended`);
  }
  return appendToRightEdge(storeSha256, edge, leafHashOfEntry(idx, text));
}

/** The right edge from its stored form (size and hashes back to back); throws for bytes that cannot be one. */
export function storedEdge(size: number, bytes: Uint8Array): RightEdge {
  const edge = decodeRightEdge(size, bytes);
  if (edge === null) throw new Error(`the stored right edge does not fit a tree of ${size} entries`);
  return edge;
}

export const edgeBytes = (edge: RightEdge): Buffer => Buffer.from(encodeRightEdge(edge));

/** A plain Uint8Array over a Buffer's bytes (no copy): the domain compares bytes, tests compare types too. */
export const plainBytes = (buffer: Uint8Array): Uint8Array =>
  new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
