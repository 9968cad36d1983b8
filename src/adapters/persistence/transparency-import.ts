// The transparency log of an imported store (`l2 store import`): its hashes are rebuilt from the imported entries,
// and the checkpoint the file carries is kept only if those entries give its root — an import serves the same root
// as the store it came from, or is refused.
import { InvalidTransferError, type TransferRecord } from '../../application/ports/store-transfer.js';
import type { TransparencyLogStore } from '../../application/ports/transparency-log-store.js';
import { bytesEqual, checkpointInNote, rangeHashReader, treeHash, type StoredHashReader } from '@l2/tlog';
import { storeSha256 } from './transparency-hashes.js';

export type TransparencyLogRecord = Extract<TransferRecord, { record: 'transparency_log' }>;

/**
 * Throws InvalidTransferError unless `record` fits the imported log of `size` entries (whose kept hashes `reader`
 * reads) and the origin the store has pinned (`pinned`, null when none).
 */
export async function checkImportedLog(
  record: TransparencyLogRecord,
  size: number,
  reader: StoredHashReader,
  pinned: string | null,
): Promise<void> {
  if (pinned !== null && record.origin !== null && pinned !== record.origin)
    throw new InvalidTransferError(
      `the file's transparency log is ${record.origin}, this store's is ${pinned}: they are different logs`,
    );
  if (record.checkpoint === null) return;
  const parsed = checkpointInNote(record.checkpoint.note);
  if (!parsed.ok) throw new InvalidTransferError('the transparency log record holds no checkpoint');
  const checkpoint = parsed.value;
  if (checkpoint.size !== record.checkpoint.size || checkpoint.origin !== record.origin)
    throw new InvalidTransferError('the transparency log record does not match its checkpoint');
  if (checkpoint.size > size)
    throw new InvalidTransferError(
      `the checkpoint covers ${checkpoint.size} entries and the file holds ${size} activities`,
    );
  const root = await treeHash(storeSha256, reader, checkpoint.size);
  if (!bytesEqual(root, checkpoint.rootHash))
    throw new InvalidTransferError(
      `the imported activities do not give the root of the checkpoint of size ${checkpoint.size}: an entry differs from the one signed`,
    );
}

/**
 * The origin and checkpoint of an imported log, written once its hashes are rebuilt (`log` reads them) and give the
 * checkpoint's root over the `size` entries imported.
 */
export async function importLogState(
  log: TransparencyLogStore,
  record: TransparencyLogRecord,
  size: number,
): Promise<void> {
  const { origin } = await log.state();
  const reader = rangeHashReader((level, first, count) => log.hashes(level, first, count));
  await checkImportedLog(record, size, reader, origin);
  if (record.origin !== null) await log.pinOrigin(record.origin);
  if (record.checkpoint !== null) await log.recordCheckpoint(record.checkpoint);
}
