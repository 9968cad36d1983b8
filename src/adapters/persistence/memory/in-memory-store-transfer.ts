import {
  emptyTransferCounts,
  StoreNotEmptyError,
  type StoreTransfer,
  type TransferCounts,
  type TransferRecord,
} from '../../../application/ports/store-transfer.js';
import { rangeHashReader } from '@l2/tlog';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Username } from '../../../domain/user.js';
import {
  decodeRecord,
  exportRecords,
  writeDecoded,
  type RecordReaders,
  type RecordWriters,
  type StoredTransferRecord,
} from '../table-transfer.js';
import { checkedBatches } from '../transfer-checks.js';
import { checkImportedLog } from '../transparency-import.js';
import { keyOf } from './in-memory-domain-rule-store.js';
import type { MemoryDatabase } from './memory-database.js';
import { MemoryTransparencyTree } from './memory-transparency-tree.js';

/** Texts in code unit order, as SQL's binary collation (and PostgreSQL's "C") orders them. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Entries of a map keyed by name, in the name's order. */
const byName = <T>(entries: Iterable<[string, T]>): [Username, T][] =>
  ([...entries] as [Username, T][]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Each kind's records as this store holds them. The memory store keeps the domain's own values (a job's and a
 * follow's times, a revocation's and an attachment's as epoch milliseconds, as SQLite does): no codec of its own,
 * only these two tables over its maps.
 */
function readers(db: MemoryDatabase): RecordReaders {
  const { security } = db;
  return {
    user: () => db.usersInOrder.map(({ user }) => user),
    totp_factor: () => byName(security.totp).map(([username, totp]) => ({ username, ...totp })),
    recovery_code: () =>
      byName(security.recoveryCodes).flatMap(([username, codes]) =>
        [...codes].sort((a, b) => (a.hash < b.hash ? -1 : 1)).map((code) => ({ username, ...code })),
      ),
    passkey: () => security.passkeys.values(),
    account_event: () => security.events,
    instance_key: () => (db.instanceKey ? [db.instanceKey] : []),
    remote_key: () => db.remoteKeys.values(),
    issued_token: () => db.issuedTokens.values(),
    revocation: () =>
      [...db.revocations.values()].map((r) => ({
        tokenHash: r.tokenHash,
        username: r.username as Username,
        expiresAt: new Date(r.expiresAt),
        revokedAt: new Date(r.revokedAt),
      })),
    attachment: () =>
      [...db.attachments].flatMap(([username, servers]) =>
        [...servers].map(([l1Server, at]) => ({
          username: username as Username,
          l1Server: l1Server as L1ServerUrl,
          attachedAt: new Date(at),
        })),
      ),
    asset: () => db.assetsInOrder.map(({ asset }) => asset),
    activity: () => db.activities.map(({ activity, document }) => ({ ...activity, entry: document })),
    follower: () =>
      [...db.followers]
        .flatMap(([username, list]) => list.map((f) => ({ username: username as Username, ...f })))
        .sort((a, b) => a.position - b.position)
        .map(({ position: _, followedAt, ...f }) => ({ ...f, followedAt: new Date(followedAt) })),
    follow_request: () => db.followRequests.map(({ request }) => request),
    actor_block: () => db.actorBlocks.rows.map(({ block }) => block),
    // By time made, then kind and host, as the other stores order them (one `now` can make several rules).
    domain_rule: () =>
      [...db.domainRules.values()].sort(
        (a, b) =>
          a.createdAt.getTime() - b.createdAt.getTime() || byText(a.kind, b.kind) || byText(a.host, b.host),
      ),
    job: () =>
      [...db.jobs.values()]
        .sort((a, b) => a.id - b.id)
        .map((job) => ({
          kind: job.kind,
          payload: job.payload,
          lane: job.lane,
          state: job.state,
          attempts: job.attempts,
          queuedAt: new Date(job.queuedAt),
          runAt: new Date(job.runAt),
          lastError: job.lastError,
          replaceKey: job.replaceKey,
        })),
  };
}

/** How an import writes each kind into this store's maps. */
function writers(db: MemoryDatabase): RecordWriters {
  const { security } = db;
  return {
    user: (user) => {
      db.insertUser(user);
      if (user.deletedAt) db.deletedUsers++;
    },
    totp_factor: ({ username, ...totp }) => security.totp.set(username, totp),
    recovery_code: ({ username, ...code }) =>
      security.recoveryCodes.set(username, [...(security.recoveryCodes.get(username) ?? []), code]),
    passkey: (passkey) => security.passkeys.set(passkey.credentialId, passkey),
    account_event: (event) => security.events.push(event),
    instance_key: (key) => (db.instanceKey = key),
    remote_key: (key) => db.remoteKeys.set(key.keyId, key),
    issued_token: (token) => db.issuedTokens.set(token.tokenHash, token),
    revocation: (r) =>
      db.revocations.set(r.tokenHash, {
        tokenHash: r.tokenHash,
        username: r.username,
        expiresAt: r.expiresAt.getTime(),
        revokedAt: r.revokedAt.getTime(),
      }),
    attachment: ({ username, l1Server, attachedAt }) => {
      const servers = db.attachments.get(username) ?? new Map<string, number>();
      servers.set(l1Server, attachedAt.getTime());
      db.attachments.set(username, servers);
    },
    asset: (asset) => db.insertAsset(asset),
    activity: ({ entry, ...activity }) =>
      db.activities.push({ position: activity.idx, activity, document: entry }),
    follower: ({ username, followedAt, ...follower }) =>
      db.restoreFollower(username, { ...follower, followedAt: followedAt.getTime() }),
    follow_request: (request) =>
      db.followRequests.push({ position: ++db.lastFollowRequestPosition, request }),
    actor_block: (block) => db.actorBlocks.add(block),
    domain_rule: (rule) => db.domainRules.set(keyOf(rule.kind, rule.host), rule),
    job: (job) => db.restoreJob({ ...job, queuedAt: job.queuedAt.getTime(), runAt: job.runAt.getTime() }),
  };
}

export class InMemoryStoreTransfer implements StoreTransfer {
  constructor(private readonly db: MemoryDatabase) {}

  async *export(): AsyncGenerator<TransferRecord> {
    const { db } = this;
    db.assertOpen();
    yield* exportRecords(readers(db), () => ({
      record: 'transparency_log',
      origin: db.tlog.origin,
      checkpoint: db.tlog.checkpoint,
    }));
  }

  async import(records: AsyncIterable<TransferRecord>): Promise<TransferCounts> {
    const { db } = this;
    db.assertOpen();
    if (db.users.size + db.assets.size + db.activities.length + db.jobs.size + db.domainRules.size > 0)
      throw new StoreNotEmptyError('users, assets, activities, jobs or domain rules');
    // All or nothing, as on SQLite: every record is checked (and read) before any is written.
    const counts = emptyTransferCounts();
    const checked: TransferRecord[] = [];
    for await (const batch of checkedBatches(records, 1_000, counts)) checked.push(...batch);
    const decoded = checked
      .filter((record): record is StoredTransferRecord => record.record !== 'transparency_log')
      .map(decodeRecord);
    // The tree of the imported entries, built aside: nothing is written unless its root is the checkpoint's.
    const tree = new MemoryTransparencyTree();
    for (const record of checked)
      if (record.record === 'activity') tree.apply(tree.prepare(record.idx, record.entry));
    const log = checked.find((record) => record.record === 'transparency_log');
    if (log) {
      const reader = rangeHashReader((level, first, count) =>
        (tree.levels[level] ?? []).slice(first, first + count),
      );
      await checkImportedLog(log, tree.edge.size, reader, db.tlog.origin);
      tree.origin = log.origin ?? db.tlog.origin;
      tree.checkpoint = log.checkpoint;
    }
    const write = writers(db);
    for (const record of decoded) writeDecoded(write, record);
    db.tlog.levels.push(...tree.levels);
    db.tlog.edge = tree.edge;
    db.tlog.origin = tree.origin ?? db.tlog.origin;
    db.tlog.checkpoint = tree.checkpoint;
    return counts;
  }
}
