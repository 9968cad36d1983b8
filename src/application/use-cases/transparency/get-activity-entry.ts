// Rule (API.md §8): an activity's ActivityStreams form is its log entry — the stored bytes, as signed — so that what
// a reader fetches is byte for byte what the log's leaf hash covers.
import { LogDataMissingError } from '../../ports/transparency-log-store.js';
import type { TransparencyLog } from '../../services/transparency/transparency-log.js';

export class GetActivityEntry {
  constructor(private readonly log: TransparencyLog) {}

  /** The stored bytes of activity `idx`, or null when there is none. */
  async execute(idx: number): Promise<Uint8Array | null> {
    if (!Number.isSafeInteger(idx) || idx < 0) return null;
    try {
      const [entry] = await this.log.entries(idx, 1);
      return entry ?? null;
    } catch (error) {
      if (error instanceof LogDataMissingError) return null;
      throw error;
    }
  }
}
