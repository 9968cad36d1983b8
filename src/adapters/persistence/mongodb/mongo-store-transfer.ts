import { ObjectId, type Document, type MongoClient } from 'mongodb';
import {
  emptyTransferCounts,
  StoreNotEmptyError,
  type StoreTransfer,
  type TransferCounts,
  type TransferRecord,
} from '../../../application/ports/store-transfer.js';
import { profileFromStored, storedProfile } from '../stored-profile.js';
import { tagKeysOf } from '../../../domain/tag-key.js';
import { checkedBatches, millis } from '../transfer-checks.js';
import type { Username } from '../../../domain/user.js';
import { passkeyDocument, passkeyFromDocument, recoveryCodeId } from './mongo-account-security-store.js';
import { storeCall } from './mongo-errors.js';
import type { CounterName, MongoCollections, UserCountDocument } from './mongo-schema.js';
import { replaceTagCounts, TAG_INDEX_BUILT } from './mongo-tag-index.js';
import { USER_COUNTS_BUILT } from './mongo-user-counts.js';
import { rangeHashReader } from '@l2/tlog';
import { checkImportedLog, type TransparencyLogRecord } from '../transparency-import.js';
import { ensureTransparencyLog, MongoTransparencyLog } from './mongo-transparency-log.js';

/** Documents written per insertMany. */
const BATCH = 1_000;

const isoOf = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const dateOf = (iso: string) => new Date(millis(iso));
const dateOrNull = (iso: string | null) => (iso === null ? null : dateOf(iso));

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

  async *export(): AsyncGenerator<TransferRecord> {
    const c = this.collections;
    for await (const u of c.users.find({}, { sort: { seq: 1 } }))
      yield {
        record: 'user',
        username: u._id,
        passwordHash: u.passwordHash,
        publicKeyPem: u.publicKeyPem,
        privateKeyPem: u.privateKeyPem,
        createdAt: isoOf(u.createdAt),
        deletedAt: isoOrNull(u.deletedAt),
        disabledAt: isoOrNull(u.disabledAt),
        profile: storedProfile(profileFromStored(u.profile)),
        profileVersion: u.profileVersion ?? 0,
      };
    for await (const t of c.totpFactors.find({}, { sort: { _id: 1 } }))
      yield {
        record: 'totp_factor',
        username: t._id,
        secret: t.secret,
        enabledAt: isoOf(t.enabledAt),
        lastUsedStep: t.lastUsedStep,
      };
    for await (const r of c.recoveryCodes.find({}, { sort: { _id: 1 } }))
      yield {
        record: 'recovery_code',
        username: r.username,
        codeHash: r.codeHash,
        usedAt: isoOrNull(r.usedAt),
      };
    for await (const p of c.passkeys.find({}, { sort: { createdAt: 1, _id: 1 } })) {
      const passkey = passkeyFromDocument(p);
      yield {
        record: 'passkey',
        ...passkey,
        transports: [...passkey.transports],
        createdAt: isoOf(passkey.createdAt),
        lastUsedAt: isoOrNull(passkey.lastUsedAt),
      };
    }
    for await (const e of c.accountEvents.find({}, { sort: { _id: 1 } }))
      yield {
        record: 'account_event',
        username: e.username,
        kind: e.kind,
        detail: e.detail,
        at: isoOf(e.at),
        address: e.address,
      };
    const instance = await storeCall(() => c.instanceKeys.findOne({ _id: 'instance' }));
    if (instance)
      yield {
        record: 'instance_key',
        publicKeyPem: instance.publicKeyPem,
        privateKeyPem: instance.privateKeyPem,
      };
    for await (const k of c.remoteKeys.find({}, { sort: { _id: 1 } }))
      yield {
        record: 'remote_key',
        keyId: k._id,
        owner: k.owner,
        publicKeyPem: k.publicKeyPem,
        fetchedAt: isoOf(k.fetchedAt),
      };
    for await (const t of c.issuedTokens.find({}, { sort: { issuedAt: 1, _id: 1 } }))
      yield {
        record: 'issued_token',
        tokenHash: t._id,
        jti: t.jti,
        username: t.username,
        sessionJti: t.sessionJti,
        l1Server: t.l1Server,
        issuedAt: isoOf(t.issuedAt),
        expiresAt: isoOf(t.expiresAt),
      };
    for await (const r of c.revocations.find({}, { sort: { revokedAt: 1, _id: 1 } }))
      yield {
        record: 'revocation',
        tokenHash: r._id,
        username: r.username,
        expiresAt: isoOf(r.expiresAt),
        revokedAt: isoOf(r.revokedAt),
      };
    for await (const a of c.attachments.find({}, { sort: { attachedAt: 1, _id: 1 } }))
      yield {
        record: 'attachment',
        username: a.username,
        l1Server: a.l1Server,
        attachedAt: isoOf(a.attachedAt),
      };
    for await (const a of c.assets.find({}, { sort: { seq: 1 } }))
      yield {
        record: 'asset',
        name: a._id,
        owner: a.owner,
        contentHash: a.contentHash,
        mediaType: a.mediaType,
        url: a.url,
        description: a.description,
        altText: a.altText ?? null,
        sensitive: a.sensitive ?? false,
        tags: [...a.tags],
        createdAt: isoOf(a.createdAt),
        updatedAt: isoOf(a.updatedAt),
        deletedAt: isoOrNull(a.deletedAt),
      };
    for await (const a of c.activities.find({}, { sort: { _id: 1 } }))
      yield {
        record: 'activity',
        idx: a._id,
        type: a.type,
        actor: a.actor,
        object: a.object,
        published: isoOf(a.published),
        entry: a.document,
      };
    const log = await storeCall(() => c.tlogState.findOne({ _id: 'state' }));
    yield { record: 'transparency_log', origin: log?.origin ?? null, checkpoint: log?.checkpoint ?? null };
    for await (const f of c.followers.find({}, { sort: { seq: 1 } }))
      yield {
        record: 'follower',
        username: f.username,
        actor: f.actor,
        inbox: f.inbox,
        sharedInbox: f.sharedInbox,
        followId: f.followId,
        followedAt: isoOf(f.followedAt),
      };
    for await (const j of c.jobs.find({}, { sort: { _id: 1 } }))
      yield {
        record: 'job',
        kind: j.kind,
        payload: JSON.parse(j.payload) as unknown,
        lane: j.lane ?? null,
        state: j.state,
        attempts: j.attempts,
        queuedAt: isoOf(j.queuedAt),
        runAt: isoOf(j.runAt),
        lastError: j.lastError,
        ...(j.replaceKey === undefined ? {} : { replaceKey: j.replaceKey }),
      };
  }

  async import(records: AsyncIterable<TransferRecord>): Promise<TransferCounts> {
    const c = this.collections;
    for (const [what, collection] of [
      ['users', c.users],
      ['assets', c.assets],
      ['activities', c.activities],
      ['jobs', c.jobs],
    ] as const)
      if (await storeCall(() => (collection as unknown as { findOne(): Promise<unknown> }).findOne()))
        throw new StoreNotEmptyError(what);
    const counts = emptyTransferCounts();
    const seq = { users: 0, assets: 0, followers: 0 };
    let log: TransparencyLogRecord | null = null;
    for await (const batch of checkedBatches(records, BATCH, counts)) {
      const byKind = new Map<Exclude<TransferRecord['record'], 'transparency_log'>, Document[]>();
      for (const record of batch) {
        if (record.record === 'transparency_log') {
          log = record;
          continue;
        }
        const list = byKind.get(record.record) ?? [];
        list.push(this.documentOf(record, seq));
        byKind.set(record.record, list);
      }
      for (const [kind, docs] of byKind)
        await storeCall(() => this.collectionFor(kind).insertMany(docs, { ordered: true }));
    }
    await this.rebuildCounts(seq);
    await storeCall(() => ensureTransparencyLog(this.client, c, true));
    if (log !== null) await this.importLog(log, counts.activity);
    return counts;
  }

  /** The origin and checkpoint of the imported log, once its hashes are rebuilt and give the checkpoint's root. */
  private async importLog(record: TransparencyLogRecord, size: number): Promise<void> {
    const log = new MongoTransparencyLog(this.collections);
    const { origin } = await log.state();
    const reader = rangeHashReader((level, first, count) => log.hashes(level, first, count));
    await checkImportedLog(record, size, reader, origin);
    if (record.origin !== null) await log.pinOrigin(record.origin);
    if (record.checkpoint !== null) await log.recordCheckpoint(record.checkpoint);
  }

  private collectionFor(kind: Exclude<TransferRecord['record'], 'transparency_log'>) {
    const c = this.collections;
    const collections = {
      user: c.users,
      totp_factor: c.totpFactors,
      recovery_code: c.recoveryCodes,
      passkey: c.passkeys,
      account_event: c.accountEvents,
      instance_key: c.instanceKeys,
      remote_key: c.remoteKeys,
      issued_token: c.issuedTokens,
      revocation: c.revocations,
      attachment: c.attachments,
      asset: c.assets,
      activity: c.activities,
      follower: c.followers,
      job: c.jobs,
    } as const;
    return collections[kind] as unknown as {
      insertMany(docs: Document[], options: { ordered: boolean }): Promise<unknown>;
    };
  }

  private documentOf(
    r: Exclude<TransferRecord, { record: 'transparency_log' }>,
    seq: { users: number; assets: number; followers: number },
  ): Document {
    switch (r.record) {
      case 'user':
        return {
          _id: r.username,
          seq: ++seq.users,
          passwordHash: r.passwordHash,
          publicKeyPem: r.publicKeyPem,
          privateKeyPem: r.privateKeyPem,
          createdAt: dateOf(r.createdAt),
          deletedAt: dateOrNull(r.deletedAt),
          disabledAt: dateOrNull(r.disabledAt),
          // Records of files exported before profiles existed have none: the empty profile, at version 0.
          profile: storedProfile(profileFromStored(r.profile)),
          profileVersion: r.profileVersion ?? 0,
        };
      case 'totp_factor':
        return {
          _id: r.username,
          secret: r.secret,
          enabledAt: dateOf(r.enabledAt),
          lastUsedStep: r.lastUsedStep,
        };
      case 'recovery_code':
        return {
          _id: recoveryCodeId(r.username, r.codeHash),
          username: r.username,
          codeHash: r.codeHash,
          usedAt: dateOrNull(r.usedAt),
        };
      case 'passkey':
        return passkeyDocument({
          ...r,
          username: r.username as Username,
          transports: [...r.transports],
          createdAt: dateOf(r.createdAt),
          lastUsedAt: dateOrNull(r.lastUsedAt),
        });
      case 'account_event':
        return { username: r.username, kind: r.kind, detail: r.detail, at: dateOf(r.at), address: r.address };
      case 'instance_key':
        return {
          _id: 'instance',
          publicKeyPem: r.publicKeyPem,
          privateKeyPem: r.privateKeyPem,
          createdAt: new Date(),
        };
      case 'remote_key':
        return { _id: r.keyId, owner: r.owner, publicKeyPem: r.publicKeyPem, fetchedAt: dateOf(r.fetchedAt) };
      case 'issued_token':
        return {
          _id: r.tokenHash,
          jti: r.jti,
          username: r.username,
          sessionJti: r.sessionJti,
          l1Server: r.l1Server,
          issuedAt: dateOf(r.issuedAt),
          expiresAt: dateOf(r.expiresAt),
        };
      case 'revocation':
        return {
          _id: r.tokenHash,
          username: r.username,
          expiresAt: dateOf(r.expiresAt),
          revokedAt: dateOf(r.revokedAt),
        };
      case 'attachment':
        return { username: r.username, l1Server: r.l1Server, attachedAt: dateOf(r.attachedAt) };
      case 'asset':
        return {
          _id: r.name,
          seq: ++seq.assets,
          owner: r.owner,
          contentHash: r.contentHash,
          mediaType: r.mediaType,
          url: r.url,
          description: r.description,
          altText: r.altText ?? null,
          sensitive: r.sensitive ?? false,
          tags: [...r.tags],
          tagKeys: tagKeysOf(r.tags),
          createdAt: dateOf(r.createdAt),
          updatedAt: dateOf(r.updatedAt),
          deletedAt: dateOrNull(r.deletedAt),
        };
      case 'activity':
        return {
          _id: r.idx,
          type: r.type,
          actor: r.actor,
          object: r.object,
          published: dateOf(r.published),
          document: r.entry,
        };
      case 'follower':
        return {
          seq: ++seq.followers,
          username: r.username,
          actor: r.actor,
          inbox: r.inbox,
          sharedInbox: r.sharedInbox,
          followId: r.followId,
          followedAt: dateOf(r.followedAt),
        };
      case 'job':
        return {
          _id: new ObjectId(),
          kind: r.kind,
          payload: JSON.stringify(r.payload ?? null),
          lane: r.lane,
          attempts: r.attempts,
          queuedAt: dateOf(r.queuedAt),
          runAt: dateOf(r.runAt),
          state: r.state,
          leaseId: null,
          leaseUntil: null,
          lastError: r.lastError,
          // Left out when there is none, as jobDocument does: the partial unique index holds only jobs with one.
          ...(r.replaceKey ? { replaceKey: r.replaceKey } : {}),
        };
    }
  }

  /** The counters, per-user and per-tag totals the adapters keep in their transactions, set from what was imported. */
  private async rebuildCounts(seq: { users: number; assets: number; followers: number }): Promise<void> {
    const c = this.collections;
    const [liveUsers, liveAssets, activities] = await Promise.all([
      storeCall(() => c.users.countDocuments({ deletedAt: null })),
      storeCall(() => c.assets.countDocuments({ deletedAt: null })),
      storeCall(() => c.activities.countDocuments({})),
    ]);
    const values: Record<CounterName, number> = {
      users: seq.users,
      live_users: liveUsers,
      asset_seq: seq.assets,
      live_assets: liveAssets,
      activities,
      follower_seq: seq.followers,
    };
    for (const [name, value] of Object.entries(values) as [CounterName, number][])
      await storeCall(() => c.counters.updateOne({ _id: name }, { $set: { value } }, { upsert: true }));
    const totals = new Map<string, Omit<UserCountDocument, '_id'>>();
    const tally = async (
      collection: { aggregate(p: Document[]): AsyncIterable<Document> },
      match: Document,
      by: string,
      field: 'activities' | 'liveAssets' | 'followers',
    ) => {
      for await (const row of collection.aggregate([
        { $match: match },
        { $group: { _id: `$${by}`, n: { $sum: 1 } } },
      ]))
        totals.set(row._id as string, { ...totals.get(row._id as string), [field]: row.n as number });
    };
    await storeCall(() => tally(c.activities as never, {}, 'actor', 'activities'));
    await storeCall(() => tally(c.assets as never, { deletedAt: null }, 'owner', 'liveAssets'));
    await storeCall(() => tally(c.followers as never, {}, 'username', 'followers'));
    await storeCall(() => c.userCounts.deleteMany({}));
    if (totals.size > 0)
      await storeCall(() =>
        c.userCounts.insertMany([...totals].map(([_id, fields]) => ({ _id, ...fields }))),
      );
    await storeCall(() =>
      c.counters.updateOne({ _id: USER_COUNTS_BUILT }, { $set: { value: 1 } }, { upsert: true }),
    );
    // Every imported asset has its tag keys: the totals are counted from them, and the index is built.
    await storeCall(() => replaceTagCounts(c));
    await storeCall(() =>
      c.counters.updateOne({ _id: TAG_INDEX_BUILT }, { $set: { value: 1 } }, { upsert: true }),
    );
  }
}
