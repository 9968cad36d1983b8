import type { AssetName } from './asset.js';
import type { Username } from './user.js';

export type ActivityType = 'Create' | 'Update' | 'Delete';

/** The activity that publishes each kind of registry edit. */
export const activityTypeOf = (kind: 'create' | 'update' | 'delete'): ActivityType =>
  kind === 'create' ? 'Create' : kind === 'update' ? 'Update' : 'Delete';

/** One entry of the global, append-only, gap-free activity log. */
export interface Activity {
  /** Position in the log: 0, 1, 2, … with no gap and no repeat. */
  readonly idx: number;
  readonly type: ActivityType;
  readonly actor: Username;
  readonly object: AssetName;
  readonly published: Date;
  /** The ActivityStreams document exactly as signed when the activity was created; served as-is. */
  readonly document: Record<string, unknown>;
}

/**
 * The most bytes one activity's entry in the transparency log may have (API.md §8): an entry bundle writes each
 * entry's length in 16 bits, so a longer one could never be served — a write that would make one is refused before
 * anything is stored.
 */
export const MAX_ACTIVITY_ENTRY_BYTES = 65_535;

/**
 * The activity's entry in the log: its document as the JSON text the store keeps, byte for byte what `GET
 * /activities/{idx}` answers in its ActivityStreams form. JSON.stringify writes lone surrogates as escapes, so the
 * text is always valid UTF-8. Throws for a document JSON cannot hold.
 */
export function activityEntryText(document: Record<string, unknown>): string {
  const text: unknown = JSON.stringify(document);
  if (typeof text !== 'string') throw new TypeError('An activity document must serialise to JSON text.');
  return text;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of an entry's text. */
export const activityEntryBytes = (text: string): Uint8Array => encoder.encode(text);

/** Whether the document's entry fits in the log (at most MAX_ACTIVITY_ENTRY_BYTES of UTF-8). */
export function fitsInLog(document: Record<string, unknown>): boolean {
  const text = activityEntryText(document);
  // Each UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4): most documents need no count.
  return (
    text.length * 3 <= MAX_ACTIVITY_ENTRY_BYTES || activityEntryBytes(text).length <= MAX_ACTIVITY_ENTRY_BYTES
  );
}
