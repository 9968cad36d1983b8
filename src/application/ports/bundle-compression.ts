/**
 * The gzip answers of every prefix of one entry bundle — its first 1, 2, …, `width` entries — kept compressed once:
 * a partial bundle `.p/<W>` is a prefix of its full bundle, so one compression answers all 255 partial widths.
 */
export interface GzipPrefixes {
  /** How many entries it covers. */
  readonly width: number;
  /** The bytes it holds (what keeping it costs). */
  readonly byteLength: number;
  /** The gzip member (RFC 1952) of the first `width` entries, 1 ≤ width ≤ this.width: no compression, a copy at most. */
  member(width: number): Uint8Array;
}

/**
 * gzip for the transparency log's entry bundles (API.md §8: gzip-encoded when the client takes it), off the event
 * loop: a bundle reaches 16 MiB, and compressing it on the event loop would stall every other request.
 */
export interface BundleCompression {
  /** The gzip member of `bytes` (a full bundle), as small as the compressor makes it. */
  gzip(bytes: Uint8Array): Promise<Uint8Array>;
  /**
   * The gzip prefixes of `bundle`, whose entries end at the offsets `ends` (ascending, the last one its length):
   * `before` (the prefixes of the bundle's first `before.width` entries, or null) extended by compressing only the
   * entries after them.
   */
  prefixes(bundle: Uint8Array, ends: readonly number[], before: GzipPrefixes | null): Promise<GzipPrefixes>;
}
