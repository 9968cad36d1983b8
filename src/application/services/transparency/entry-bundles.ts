// Rule (API.md §8, issue 33): the entries a checkpoint covers never change, so an entry bundle is built once — read
// from the store a few entries at a time, letting other requests run between the reads, and compressed off the event
// loop — and kept encoded by index. A partial bundle `.p/<W>` is the first W entries of its index, cut from the same
// bytes. Building is bounded per client address and in all: past either bound the client is told to come back
// (429 / 503 with Retry-After). What is kept is answered without a slot.
import { err, ok, type Result } from '../../../domain/result.js';
import { encodeEntryBundle, FULL_TILE_WIDTH } from '@l2/tlog';
import type { BoundedCache, CacheFactory } from '../../ports/bounded-cache.js';
import type { BundleCompression, GzipPrefixes } from '../../ports/bundle-compression.js';
import { WorkSlots } from '../work-slots.js';
import type { TransparencyLog } from './transparency-log.js';

export interface EntryBundleLimits {
  /** Bundles built at once by the process (reading entries from the store, compressing). */
  readonly buildsAtOnce: number;
  /** Bundles built at once for one client address. */
  readonly buildsPerClient: number;
  /** Bytes of encoded bundles kept in memory (plain, gzip and the gzip prefixes of partial bundles). */
  readonly keptBytes: number;
  /** Entries read from the store at a time (a pause for other work after each read). */
  readonly entriesPerRead: number;
  /** The Retry-After of a refused read: a build takes tens of milliseconds, a fat one a few hundred. */
  readonly retryAfterSeconds: number;
}

/** docs/security.md: a fat bundle (256 entries of ~35 KB) is ~9 MiB plain, so 32 MiB keeps at least one whole. */
export const DEFAULT_ENTRY_BUNDLE_LIMITS: EntryBundleLimits = {
  buildsAtOnce: 4,
  buildsPerClient: 2,
  keptBytes: 32 * 2 ** 20,
  entriesPerRead: 16,
  retryAfterSeconds: 1,
};

/** A read that needed a build and found no slot: this client's (429) or every one (503). */
export type BundleRefusal =
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number }
  | { readonly type: 'busy'; readonly retryAfterSeconds: number };

export interface BundleRead {
  readonly index: number;
  /** Entries asked for, 1–256. */
  readonly width: number;
  /** Entries of this bundle the latest checkpoint covers (≥ width): a build reads them all, once. */
  readonly covered: number;
  readonly gzip: boolean;
  /** The client's address as the per-address bound counts it; asked only when a build is needed. */
  readonly client: () => string;
}

/** A bundle's first entries as read, and where each entry ends in them. */
interface Plain {
  readonly kind: 'plain';
  readonly bytes: Uint8Array;
  readonly ends: readonly number[];
}
type Kept =
  | Plain
  | { readonly kind: 'gzip'; readonly bytes: Uint8Array }
  | { readonly kind: 'prefixes'; readonly prefixes: GzipPrefixes };

/** The most entries kept: far more than the bytes allow for bundles of any size. */
const KEPT_ENTRIES = 10_000;

const weigh = (kept: Kept): number =>
  kept.kind === 'prefixes'
    ? kept.prefixes.byteLength
    : kept.bytes.byteLength + 8 * (kept.kind === 'plain' ? kept.ends.length : 0);

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export class EntryBundles {
  private readonly kept: BoundedCache<string, Kept>;
  private readonly slots: WorkSlots;
  /** The build under way for each index: a read that needs the same index waits for it rather than building again. */
  private readonly building = new Map<number, Promise<Uint8Array>>();

  constructor(
    /** Where entries are read (the TransparencyLog service). */
    private readonly log: Pick<TransparencyLog, 'entries'>,
    private readonly compression: BundleCompression,
    caches: CacheFactory,
    private readonly limits: EntryBundleLimits,
    /** Lets other work run (setImmediate in production). */
    private readonly pause: () => Promise<void>,
  ) {
    this.kept = caches.create({ max: KEPT_ENTRIES, weight: { total: limits.keptBytes, weigh } });
    this.slots = new WorkSlots(limits.buildsAtOnce, limits.buildsPerClient);
  }

  /** The bundle's bytes (gzip-encoded when asked), from memory when kept, else built if a slot is free. */
  async read(request: BundleRead): Promise<Result<Uint8Array, BundleRefusal>> {
    for (;;) {
      const kept = this.fromMemory(request);
      if (kept) return ok(kept);
      const pending = this.building.get(request.index);
      if (pending) {
        // Its outcome is that read's; this one looks again (the build may have kept what it needs, or may not).
        await pending.catch(() => undefined);
        continue;
      }
      const slot = this.slots.take(request.client());
      if (typeof slot === 'string') {
        const retryAfterSeconds = this.limits.retryAfterSeconds;
        return err({ type: slot === 'client' ? 'rate_limited' : 'busy', retryAfterSeconds });
      }
      const build = this.build(request).finally(() => {
        this.building.delete(request.index);
        slot.release();
      });
      this.building.set(request.index, build);
      return ok(await build);
    }
  }

  private fromMemory({ index, width, gzip }: BundleRead): Uint8Array | undefined {
    if (!gzip) {
      const plain = this.kept.get(`plain/${index}`);
      return plain?.kind === 'plain' && plain.ends.length >= width ? prefixOf(plain, width) : undefined;
    }
    if (width === FULL_TILE_WIDTH) {
      const whole = this.kept.get(`gzip/${index}`);
      if (whole?.kind === 'gzip') return whole.bytes;
    }
    const prefixes = this.kept.get(`prefixes/${index}`);
    return prefixes?.kind === 'prefixes' && prefixes.prefixes.width >= width
      ? prefixes.prefixes.member(width)
      : undefined;
  }

  private async build({ index, width, covered, gzip }: BundleRead): Promise<Uint8Array> {
    const plain = await this.readPlain(index, Math.max(width, Math.min(covered, FULL_TILE_WIDTH)));
    if (!gzip) return prefixOf(plain, width);
    if (width === FULL_TILE_WIDTH) {
      // The full bundle is what most clients read: compressed as one stream, as small as gzip makes it.
      const bytes = await this.compression.gzip(plain.bytes);
      this.kept.set(`gzip/${index}`, { kind: 'gzip', bytes });
      return bytes;
    }
    const before = this.kept.get(`prefixes/${index}`);
    const prefixes = await this.compression.prefixes(
      plain.bytes,
      plain.ends,
      before?.kind === 'prefixes' ? before.prefixes : null,
    );
    this.kept.set(`prefixes/${index}`, { kind: 'prefixes', prefixes });
    return prefixes.member(width);
  }

  /** The first `width` entries of bundle `index`, reading from the store only those not kept yet. */
  private async readPlain(index: number, width: number): Promise<Plain> {
    const kept = this.kept.get(`plain/${index}`);
    const known = kept?.kind === 'plain' ? kept : null;
    if (known && known.ends.length >= width) return known;
    const parts = known ? [known.bytes] : [];
    const ends = [...(known?.ends ?? [])];
    let length = known?.bytes.length ?? 0;
    for (let at = ends.length; at < width; at += this.limits.entriesPerRead) {
      // A fat entry is 64 KiB at most: a read holds the loop for a few milliseconds, then other requests run.
      if (parts.length > 0) await this.pause();
      const count = Math.min(this.limits.entriesPerRead, width - at);
      const entries = await this.log.entries(index * FULL_TILE_WIDTH + at, count);
      parts.push(encodeEntryBundle(entries));
      for (const entry of entries) {
        length += 2 + entry.length;
        ends.push(length);
      }
    }
    const plain: Plain = { kind: 'plain', bytes: concat(parts, length), ends };
    this.kept.set(`plain/${index}`, plain);
    return plain;
  }
}

/** The bundle of the first `width` entries: the leading bytes of a wider one (it shares them, no copy). */
const prefixOf = (plain: Plain, width: number): Uint8Array => plain.bytes.subarray(0, plain.ends[width - 1]);
