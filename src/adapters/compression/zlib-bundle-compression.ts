// gzip for entry bundles on zlib's asynchronous API: the work runs on libuv's thread pool, in pieces, so the event
// loop answers other requests meanwhile (a fat bundle is ~9 MiB, and gzipSync of it held the loop for tens of ms).
import { promisify } from 'node:util';
import { constants, crc32, createDeflateRaw, gzip as gzipCallback, type DeflateRaw } from 'node:zlib';
import type { BundleCompression, GzipPrefixes } from '../../application/ports/bundle-compression.js';

const gzip = promisify(gzipCallback);

/** RFC 1952 §2.3: magic, deflate, no flags, no time, no extra flags, OS "Unix" (as zlib writes it). */
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3);
/** An empty final block with fixed Huffman codes (BFINAL 1, BTYPE 01, end-of-block): what ends a cut stream. */
const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);
/** How far back DEFLATE may refer: the window a continuation is primed with, so it compresses as one stream would. */
const WINDOW = 32 * 1024;

/** CRC-32 and length of the data, little-endian: a gzip member's last eight bytes. */
function trailer(crc: number, size: number): Uint8Array {
  const bytes = new Uint8Array(8);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, size >>> 0, true);
  return bytes;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/**
 * Every prefix of a bundle as gzip, from one DEFLATE stream flushed to a byte boundary at each entry's end (a sync
 * flush, RFC 1951 §3.2.4's empty stored block) and never finished: cut after entry W, then given an empty final
 * block and the trailer of the first W entries, it is the gzip member of exactly those. `widest` is that member for
 * all `width` entries; `cuts[i]` is where its DEFLATE data of entries 0…i ends.
 */
class CutGzipPrefixes implements GzipPrefixes {
  constructor(
    readonly widest: Uint8Array,
    readonly cuts: readonly number[],
    readonly crcs: readonly number[],
    readonly ends: readonly number[],
  ) {}

  get width(): number {
    return this.cuts.length;
  }

  get byteLength(): number {
    return this.widest.byteLength + 8 * 3 * this.cuts.length;
  }

  member(width: number): Uint8Array {
    if (!Number.isInteger(width) || width < 1 || width > this.width)
      throw new RangeError(`no prefix of ${width}`);
    if (width === this.width) return this.widest;
    const i = width - 1;
    return concat([
      this.widest.subarray(0, this.cuts[i]),
      FINAL_BLOCK,
      trailer(this.crcs[i]!, this.ends[i]!),
    ]);
  }
}

/**
 * Raw DEFLATE of `pieces`, sync-flushed after each: where each piece's data ends in the output, and the CRC-32 of
 * the data up to it (continuing `crc`), each worked out between two flushes so that none holds the loop for long.
 */
async function deflateFlushedEach(
  pieces: readonly Uint8Array[],
  dictionary: Uint8Array | null,
  crc: number,
): Promise<{ bytes: Uint8Array; ends: number[]; crcs: number[] }> {
  const deflater: DeflateRaw = createDeflateRaw(dictionary?.length ? { dictionary } : {});
  const output: Buffer[] = [];
  let length = 0;
  deflater.on('data', (chunk: Buffer) => {
    output.push(chunk);
    length += chunk.length;
  });
  const failed = new Promise<never>((_, reject) => deflater.once('error', reject));
  try {
    const ends: number[] = [];
    const crcs: number[] = [];
    for (const piece of pieces) {
      deflater.write(piece);
      crcs.push((crc = crc32(piece, crc)));
      // The flush's callback runs once its output has been emitted.
      await Promise.race([
        new Promise<void>((resolve) => deflater.flush(constants.Z_SYNC_FLUSH, () => resolve())),
        failed,
      ]);
      ends.push(length);
    }
    return { bytes: Buffer.concat(output, length), ends, crcs };
  } finally {
    // Never ended: ending would write a final block, and the stream must stay open-ended to be cut or continued.
    deflater.close();
    failed.catch(() => {});
  }
}

export class ZlibBundleCompression implements BundleCompression {
  gzip(bytes: Uint8Array): Promise<Uint8Array> {
    return gzip(bytes);
  }

  async prefixes(
    bundle: Uint8Array,
    ends: readonly number[],
    before: GzipPrefixes | null,
  ): Promise<GzipPrefixes> {
    const known = before instanceof CutGzipPrefixes ? before : null;
    const from = known?.width ?? 0;
    if (from >= ends.length && known) return known;
    const start = from === 0 ? 0 : ends[from - 1]!;
    const pieces = ends
      .slice(from)
      .map((end, i) => bundle.subarray(i === 0 ? start : ends[from + i - 1]!, end));
    // Primed with the bytes before it, the continuation refers back into them as one stream would.
    const dictionary = start === 0 ? null : bundle.subarray(Math.max(0, start - WINDOW), start);
    const segment = await deflateFlushedEach(pieces, dictionary, known?.crcs.at(-1) ?? 0);
    const head = known ? known.widest.subarray(0, known.cuts.at(-1)) : GZIP_HEADER;
    const cuts = [...(known?.cuts ?? []), ...segment.ends.map((end) => head.length + end)];
    const crcs = [...(known?.crcs ?? []), ...segment.crcs];
    const allEnds = ends.slice(0, cuts.length);
    const widest = concat([head, segment.bytes, FINAL_BLOCK, trailer(crcs.at(-1)!, allEnds.at(-1)!)]);
    return new CutGzipPrefixes(widest, cuts, crcs, allEnds);
  }
}
