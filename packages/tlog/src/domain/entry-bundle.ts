import { FULL_TILE_WIDTH } from './tile-constants.js';

/**
 * Entry bundles of c2sp.org/tlog-tiles: the entries of one level-0 tile, each as a big-endian
 * uint16 length followed by the entry's bytes. The 16-bit length is why an entry is at most
 * 65,535 bytes — a larger one could not be served, so the log must refuse it before storing it.
 */

export const MAX_ENTRY_SIZE = 65_535;

export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  if (entries.length === 0 || entries.length > FULL_TILE_WIDTH) {
    throw new RangeError(`a bundle holds 1 to ${FULL_TILE_WIDTH} entries, not ${entries.length}`);
  }
  const out = new Uint8Array(entries.reduce((total, entry) => total + 2 + entry.length, 0));
  let offset = 0;
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_SIZE) {
      throw new RangeError(`an entry of ${entry.length} bytes exceeds ${MAX_ENTRY_SIZE}`);
    }
    out[offset] = entry.length >> 8;
    out[offset + 1] = entry.length & 0xff;
    out.set(entry, offset + 2);
    offset += 2 + entry.length;
  }
  return out;
}

/** The entries of a bundle, or null when the bytes end inside a length or an entry. */
export function decodeEntryBundle(bytes: Uint8Array): Uint8Array[] | null {
  const entries: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 2 > bytes.length) return null;
    const length = (bytes[offset]! << 8) | bytes[offset + 1]!;
    if (offset + 2 + length > bytes.length) return null;
    entries.push(bytes.slice(offset + 2, offset + 2 + length));
    offset += 2 + length;
  }
  return entries;
}
