// The rules every store's import relies on, checked once for all of them while the records stream by.
import {
  emptyTransferCounts,
  InvalidTransferError,
  TRANSFER_ORDER,
  type TransferCounts,
  type TransferRecord,
} from '../../application/ports/store-transfer.js';

/**
 * Passes the records on in batches of up to `size`, checking as they go that kinds come in TRANSFER_ORDER and
 * activities in idx order from 0 with no gap; `counts` is filled in as records pass.
 */
export async function* checkedBatches(
  records: AsyncIterable<TransferRecord>,
  size: number,
  counts: TransferCounts = emptyTransferCounts(),
): AsyncGenerator<TransferRecord[]> {
  let rank = 0;
  let batch: TransferRecord[] = [];
  for await (const record of records) {
    const at = TRANSFER_ORDER.indexOf(record.record);
    if (at < rank)
      throw new InvalidTransferError(
        `a ${record.record} record after ${TRANSFER_ORDER[rank]} records: the records are out of order`,
      );
    rank = at;
    if (record.record === 'activity' && record.idx !== counts.activity)
      throw new InvalidTransferError(
        `activity ${record.idx} where ${counts.activity} was expected: the log has a gap`,
      );
    if (record.record === 'instance_key' && counts.instance_key > 0)
      throw new InvalidTransferError('more than one instance key');
    counts[record.record]++;
    batch.push(record);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Epoch milliseconds of an ISO time, refusing what is not one. */
export function millis(iso: string): number {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) throw new InvalidTransferError(`not a time: ${JSON.stringify(iso)}`);
  return at;
}

export const iso = (millis: number): string => new Date(millis).toISOString();
export const isoOrNull = (millis: number | null): string | null => (millis === null ? null : iso(millis));
export const millisOrNull = (value: string | null): number | null => (value === null ? null : millis(value));
