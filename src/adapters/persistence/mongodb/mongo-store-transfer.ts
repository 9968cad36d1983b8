import { ObjectId, type Collection, type Document, type MongoClient, type Sort } from 'mongodb';
import {
  emptyTransferCounts,
  StoreNotEmptyError,
  type StoreTransfer,
  type TransferCounts,
  type TransferRecord,
} from '../../../application/ports/store-transfer.js';
import type { StoredKind, StoredRecords } from '../stored-records.js';
import {
  byKind,
  exportRecords,
  writeRecord,
  type RecordReaders,
  type RecordWriters,
} from '../table-transfer.js';
import { checkedBatches } from '../transfer-checks.js';
import { importLogState, type TransparencyLogRecord } from '../transparency-import.js';
import { ACTIVITY_DOCUMENTS } from './codecs/activity-documents.js';
import { ACTOR_BLOCK_DOCUMENTS } from './codecs/actor-block-documents.js';
import { ASSET_DOCUMENTS } from './codecs/asset-documents.js';
import {
  DOMAIN_RULE_DOCUMENTS,
  FOLLOW_REQUEST_DOCUMENTS,
  FOLLOWER_DOCUMENTS,
  INSTANCE_KEY_DOCUMENTS,
  REMOTE_KEY_DOCUMENTS,
} from './codecs/federation-documents.js';
import { JOB_DOCUMENTS } from './codecs/job-documents.js';
import {
  ACCOUNT_EVENT_DOCUMENTS,
  PASSKEY_DOCUMENTS,
  RECOVERY_CODE_DOCUMENTS,
  TOTP_FACTOR_DOCUMENTS,
} from './codecs/security-documents.js';
import {
  ATTACHMENT_DOCUMENTS,
  ISSUED_TOKEN_DOCUMENTS,
  REVOCATION_DOCUMENTS,
} from './codecs/token-documents.js';
import { USER_DOCUMENTS } from './codecs/user-documents.js';
import type { MongoCodec } from './mongo-codec.js';
import { storeCall } from './mongo-errors.js';
import type { MongoCollections } from './mongo-schema.js';
import { rebuildCounts, type ImportPositions } from './mongo-transfer-counts.js';
import { ensureTransparencyLog, MongoTransparencyLog } from './mongo-transparency-log.js';

/** Documents written per insertMany. */
const BATCH = 1_000;

/** A kind's collection: its codec, the order it is exported in, and what the importer adds (a position, an id). */
interface TransferCollection<K extends StoredKind> {
  readonly collection: keyof MongoCollections;
  readonly codec: MongoCodec<StoredRecords[K], Document, never>;
  readonly sort: Sort;
  readonly stamp?: (positions: ImportPositions) => Document;
}

/** Every kind's collection, in one place: a kind without one does not compile. */
const TRANSFER_COLLECTIONS: { readonly [K in StoredKind]: TransferCollection<K> } = {
  user: {
    collection: 'users',
    codec: USER_DOCUMENTS,
    sort: { seq: 1 },
    stamp: (next) => ({ seq: ++next.users }),
  },
  totp_factor: { collection: 'totpFactors', codec: TOTP_FACTOR_DOCUMENTS, sort: { _id: 1 } },
  recovery_code: { collection: 'recoveryCodes', codec: RECOVERY_CODE_DOCUMENTS, sort: { _id: 1 } },
  passkey: { collection: 'passkeys', codec: PASSKEY_DOCUMENTS, sort: { createdAt: 1, _id: 1 } },
  account_event: { collection: 'accountEvents', codec: ACCOUNT_EVENT_DOCUMENTS, sort: { _id: 1 } },
  instance_key: { collection: 'instanceKeys', codec: INSTANCE_KEY_DOCUMENTS, sort: { _id: 1 } },
  remote_key: { collection: 'remoteKeys', codec: REMOTE_KEY_DOCUMENTS, sort: { _id: 1 } },
  issued_token: { collection: 'issuedTokens', codec: ISSUED_TOKEN_DOCUMENTS, sort: { issuedAt: 1, _id: 1 } },
  revocation: { collection: 'revocations', codec: REVOCATION_DOCUMENTS, sort: { revokedAt: 1, _id: 1 } },
  attachment: { collection: 'attachments', codec: ATTACHMENT_DOCUMENTS, sort: { attachedAt: 1, _id: 1 } },
  asset: {
    collection: 'assets',
    codec: ASSET_DOCUMENTS,
    sort: { seq: 1 },
    stamp: (next) => ({ seq: ++next.assets }),
  },
  activity: { collection: 'activities', codec: ACTIVITY_DOCUMENTS, sort: { _id: 1 } },
  follower: {
    collection: 'followers',
    codec: FOLLOWER_DOCUMENTS,
    sort: { seq: 1 },
    stamp: (next) => ({ seq: ++next.followers }),
  },
  follow_request: {
    collection: 'followRequests',
    codec: FOLLOW_REQUEST_DOCUMENTS,
    sort: { seq: 1 },
    stamp: (next) => ({ seq: ++next.followRequests }),
  },
  actor_block: {
    collection: 'actorBlocks',
    codec: ACTOR_BLOCK_DOCUMENTS,
    sort: { seq: 1 },
    stamp: (next) => ({ seq: ++next.actorBlocks }),
  },
  domain_rule: {
    collection: 'domainRules',
    codec: DOMAIN_RULE_DOCUMENTS,
    sort: { createdAt: 1, kind: 1, host: 1 },
  },
  job: { collection: 'jobs', codec: JOB_DOCUMENTS, sort: { _id: 1 }, stamp: () => ({ _id: new ObjectId() }) },
};

/** A collection as the transfer uses it: documents of any shape (each kind's codec gives them their type). */
type AnyCollection = Collection<Document>;

/**
 * Export reads each collection in its own order (not one snapshot across collections: run it with the service
 * stopped for an exact copy). Import writes in batches, not in one transaction (MongoDB limits a transaction's
 * size and time): a failed import leaves a partial database — drop it and import again.
 */
export class MongoStoreTransfer implements StoreTransfer {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  private collection(kind: StoredKind): AnyCollection {
    return this.collections[TRANSFER_COLLECTIONS[kind].collection] as unknown as AnyCollection;
  }

  async *export(): AsyncGenerator<TransferRecord> {
    const readers: RecordReaders = byKind((kind) => {
      const { codec, sort } = TRANSFER_COLLECTIONS[kind];
      const collection = this.collection(kind);
      return async function* () {
        for await (const doc of collection.find({}, { sort })) yield codec.fromDocument(doc as never);
      };
    });
    yield* exportRecords(readers, async () => {
      const log = await storeCall(() => this.collections.tlogState.findOne({ _id: 'state' }));
      return { record: 'transparency_log', origin: log?.origin ?? null, checkpoint: log?.checkpoint ?? null };
    });
  }

  async import(records: AsyncIterable<TransferRecord>): Promise<TransferCounts> {
    for (const [what, kind] of [
      ['users', 'user'],
      ['assets', 'asset'],
      ['activities', 'activity'],
      ['jobs', 'job'],
      ['domain rules', 'domain_rule'],
    ] as const)
      if (await storeCall(() => this.collection(kind).findOne())) throw new StoreNotEmptyError(what);
    const counts = emptyTransferCounts();
    const positions: ImportPositions = {
      users: 0,
      assets: 0,
      followers: 0,
      followRequests: 0,
      actorBlocks: 0,
    };
    let log: TransparencyLogRecord | null = null;
    for await (const batch of checkedBatches(records, BATCH, counts)) {
      const byCollection = new Map<StoredKind, Document[]>();
      // Each kind's writer puts the record's document, with what the importer adds, in its kind's list.
      const writers: RecordWriters = byKind((kind) => {
        const { codec, stamp } = TRANSFER_COLLECTIONS[kind];
        return (value: never) => {
          const docs = byCollection.get(kind) ?? [];
          docs.push({ ...codec.toDocument(value), ...stamp?.(positions) });
          byCollection.set(kind, docs);
        };
      });
      for (const record of batch)
        if (record.record === 'transparency_log') log = record;
        else writeRecord(writers, record);
      for (const [kind, docs] of byCollection)
        await storeCall(() => this.collection(kind).insertMany(docs, { ordered: true }));
    }
    await rebuildCounts(this.collections, positions);
    await storeCall(() => ensureTransparencyLog(this.client, this.collections, true));
    if (log !== null) await importLogState(new MongoTransparencyLog(this.collections), log, counts.activity);
    return counts;
  }
}
