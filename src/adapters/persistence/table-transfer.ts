// The store transfer as a table: a store says, per kind of record, how it reads its records (in its own order) and
// how it writes one; this file turns them into the export file's records and back through transfer-codecs.ts. A
// table missing a kind does not compile.
import {
  TRANSFER_ORDER,
  type TransferRecord,
  type TransferRecordKind,
} from '../../application/ports/store-transfer.js';
import type { StoredKind, StoredRecords } from './stored-records.js';
import { TRANSFER_CODECS, type TransferCodec } from './transfer-codecs.js';
import type { TransparencyLogRecord } from './transparency-import.js';

/** Each kind's records as the store holds them, in its order (users by registration, activities by idx, …). */
export type RecordReaders = {
  readonly [K in StoredKind]: () => Iterable<StoredRecords[K]> | AsyncIterable<StoredRecords[K]>;
};

/** How the store writes one record of each kind during an import. */
export type RecordWriters = { readonly [K in StoredKind]: (value: StoredRecords[K]) => void };

/** A record of the file but the log's state. */
export type StoredTransferRecord = Exclude<TransferRecord, { record: 'transparency_log' }>;

/**
 * A table with an entry per kind, each made by `make(kind)` for a store whose entries differ only by their codec (a
 * SQL table, a collection): the caller's annotation (RecordReaders, RecordWriters) gives each entry its type, and
 * `make` must make the entry of the kind it is given — the one unchecked step, kept to this line.
 */
export const byKind = <Table>(make: (kind: StoredKind) => unknown): Table =>
  Object.fromEntries(TRANSFER_ORDER.filter(isStoredKind).map((kind) => [kind, make(kind)])) as Table;

const isStoredKind = (kind: TransferRecordKind): kind is StoredKind => kind !== 'transparency_log';

async function* recordsOfKind<K extends StoredKind>(
  kind: K,
  read: RecordReaders[K],
): AsyncGenerator<TransferRecord> {
  const codec: TransferCodec<K> = TRANSFER_CODECS[kind];
  for await (const value of read()) yield codec.toTransfer(value);
}

/** Every record of the store, kind by kind in TRANSFER_ORDER; the log's state (`logState`) in its place. */
export async function* exportRecords(
  readers: RecordReaders,
  logState: () => TransparencyLogRecord | Promise<TransparencyLogRecord>,
): AsyncGenerator<TransferRecord> {
  for (const kind of TRANSFER_ORDER)
    if (isStoredKind(kind)) yield* recordsOfKind(kind, readers[kind]);
    else yield await logState();
}

/** The stored value a record of the file holds (InvalidTransferError for a time that is not one). */
export function storedValueOf<K extends StoredKind>(
  record: StoredTransferRecord & { record: K },
): StoredRecords[K] {
  return (TRANSFER_CODECS[record.record] as TransferCodec<K>).fromTransfer(record as never);
}

/** A record of the file as its kind and the stored value it holds. */
export interface DecodedRecord {
  readonly kind: StoredKind;
  readonly value: StoredRecords[StoredKind];
}

export const decodeRecord = (record: StoredTransferRecord): DecodedRecord => ({
  kind: record.record,
  value: storedValueOf(record),
});

/** Writes a decoded record with the store's writer of its kind. */
export function writeDecoded(writers: RecordWriters, { kind, value }: DecodedRecord): void {
  (writers[kind] as (value: unknown) => void)(value);
}

/** Writes the value a record of the file holds with the store's writer of its kind. */
export const writeRecord = (writers: RecordWriters, record: StoredTransferRecord): void =>
  writeDecoded(writers, decodeRecord(record));
