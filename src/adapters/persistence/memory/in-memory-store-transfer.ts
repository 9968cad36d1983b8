import {
  emptyTransferCounts,
  StoreNotEmptyError,
  type StoreTransfer,
  type TransferCounts,
  type TransferRecord,
} from '../../../application/ports/store-transfer.js';
import type { AccountEventKind } from '../../../domain/account-security.js';
import type { ActivityType } from '../../../domain/activity.js';
import type { AssetName } from '../../../domain/asset.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Username } from '../../../domain/user.js';
import { profileFromStored, storedProfile } from '../stored-profile.js';
import { checkedBatches, iso, millis } from '../transfer-checks.js';
import { rangeHashReader } from '@l2/tlog';
import { checkImportedLog } from '../transparency-import.js';
import type { MemoryDatabase } from './memory-database.js';
import { MemoryTransparencyTree } from './memory-transparency-tree.js';

const dateOrNull = (value: string | null) => (value === null ? null : new Date(millis(value)));

export class InMemoryStoreTransfer implements StoreTransfer {
  constructor(private readonly db: MemoryDatabase) {}

  async *export(): AsyncGenerator<TransferRecord> {
    const { db } = this;
    db.assertOpen();
    for (const { user } of db.usersInOrder)
      yield {
        record: 'user',
        username: user.username,
        passwordHash: user.passwordHash,
        publicKeyPem: user.publicKeyPem,
        privateKeyPem: user.privateKeyPem,
        createdAt: user.createdAt.toISOString(),
        deletedAt: user.deletedAt?.toISOString() ?? null,
        disabledAt: user.disabledAt?.toISOString() ?? null,
        profile: storedProfile(user.profile),
        profileVersion: user.profileVersion,
      };
    const { security } = db;
    for (const [username, totp] of [...security.totp].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      yield {
        record: 'totp_factor',
        username,
        secret: totp.secret,
        enabledAt: totp.enabledAt.toISOString(),
        lastUsedStep: totp.lastUsedStep,
      };
    for (const [username, codes] of [...security.recoveryCodes].sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    ))
      for (const code of [...codes].sort((a, b) => (a.hash < b.hash ? -1 : 1)))
        yield {
          record: 'recovery_code',
          username,
          codeHash: code.hash,
          usedAt: code.usedAt?.toISOString() ?? null,
        };
    for (const p of security.passkeys.values())
      yield {
        record: 'passkey',
        ...p,
        transports: [...p.transports],
        createdAt: p.createdAt.toISOString(),
        lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
      };
    for (const e of security.events) yield { record: 'account_event', ...e, at: e.at.toISOString() };
    if (db.instanceKeyPair) yield { record: 'instance_key', ...db.instanceKeyPair };
    for (const key of db.remoteKeys.values())
      yield { record: 'remote_key', ...key, fetchedAt: key.fetchedAt.toISOString() };
    for (const token of db.issuedTokens.values())
      yield {
        record: 'issued_token',
        ...token,
        issuedAt: token.issuedAt.toISOString(),
        expiresAt: token.expiresAt.toISOString(),
      };
    for (const r of db.revocations.values())
      yield { record: 'revocation', ...r, expiresAt: iso(r.expiresAt), revokedAt: iso(r.revokedAt) };
    for (const [username, servers] of db.attachments)
      for (const [l1Server, attachedAt] of servers)
        yield { record: 'attachment', username, l1Server, attachedAt: iso(attachedAt) };
    for (const { asset } of db.assetsInOrder)
      yield {
        record: 'asset',
        name: asset.name,
        owner: asset.owner,
        contentHash: asset.contentHash,
        mediaType: asset.mediaType,
        url: asset.url,
        description: asset.description,
        altText: asset.altText,
        sensitive: asset.sensitive,
        tags: [...asset.tags],
        createdAt: asset.createdAt.toISOString(),
        updatedAt: asset.updatedAt.toISOString(),
        deletedAt: asset.deletedAt?.toISOString() ?? null,
      };
    for (const { activity, document } of db.activities)
      yield { record: 'activity', ...activity, published: activity.published.toISOString(), entry: document };
    yield { record: 'transparency_log', origin: db.tlog.origin, checkpoint: db.tlog.checkpoint };
    const follows = [...db.followers].flatMap(([username, list]) => list.map((f) => ({ username, ...f })));
    for (const { position: _, ...f } of follows.sort((a, b) => a.position - b.position))
      yield { record: 'follower', ...f, followedAt: iso(f.followedAt) };
    for (const job of [...db.jobs.values()].sort((a, b) => a.id - b.id))
      yield {
        record: 'job',
        kind: job.kind,
        payload: JSON.parse(job.payload) as unknown,
        lane: job.lane,
        state: job.state,
        attempts: job.attempts,
        queuedAt: iso(job.queuedAt),
        runAt: iso(job.runAt),
        lastError: job.lastError,
        ...(job.replaceKey === null ? {} : { replaceKey: job.replaceKey }),
      };
  }

  async import(records: AsyncIterable<TransferRecord>): Promise<TransferCounts> {
    const { db } = this;
    db.assertOpen();
    if (db.users.size + db.assets.size + db.activities.length + db.jobs.size > 0)
      throw new StoreNotEmptyError('users, assets, activities or jobs');
    // All or nothing, as on SQLite: every record is checked before any is written.
    const counts = emptyTransferCounts();
    const checked: TransferRecord[] = [];
    for await (const batch of checkedBatches(records, 1_000, counts)) checked.push(...batch);
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
    for (const record of checked) this.write(record);
    db.tlog.levels.push(...tree.levels);
    db.tlog.edge = tree.edge;
    db.tlog.origin = tree.origin ?? db.tlog.origin;
    db.tlog.checkpoint = tree.checkpoint;
    return counts;
  }

  private write(r: TransferRecord): void {
    const { db } = this;
    switch (r.record) {
      case 'user': {
        const deletedAt = dateOrNull(r.deletedAt);
        db.insertUser({
          username: r.username as Username,
          passwordHash: r.passwordHash,
          publicKeyPem: r.publicKeyPem,
          privateKeyPem: r.privateKeyPem,
          createdAt: new Date(millis(r.createdAt)),
          deletedAt,
          disabledAt: dateOrNull(r.disabledAt),
          profile: profileFromStored(r.profile),
          profileVersion: r.profileVersion ?? 0,
        });
        if (deletedAt) db.deletedUsers++;
        return;
      }
      case 'totp_factor':
        db.security.totp.set(r.username, {
          secret: r.secret,
          enabledAt: new Date(millis(r.enabledAt)),
          lastUsedStep: r.lastUsedStep,
        });
        return;
      case 'recovery_code':
        db.security.recoveryCodes.set(r.username, [
          ...(db.security.recoveryCodes.get(r.username) ?? []),
          { hash: r.codeHash, usedAt: dateOrNull(r.usedAt) },
        ]);
        return;
      case 'passkey':
        db.security.passkeys.set(r.credentialId, {
          ...withoutKind(r),
          username: r.username as Username,
          transports: [...r.transports],
          createdAt: new Date(millis(r.createdAt)),
          lastUsedAt: dateOrNull(r.lastUsedAt),
        });
        return;
      case 'account_event':
        db.security.events.push({
          ...withoutKind(r),
          username: r.username as Username,
          kind: r.kind as AccountEventKind,
          at: new Date(millis(r.at)),
        });
        return;
      case 'instance_key':
        db.instanceKeyPair = { publicKeyPem: r.publicKeyPem, privateKeyPem: r.privateKeyPem };
        return;
      case 'remote_key':
        db.remoteKeys.set(r.keyId, { ...withoutKind(r), fetchedAt: new Date(millis(r.fetchedAt)) });
        return;
      case 'issued_token':
        db.issuedTokens.set(r.tokenHash, {
          ...withoutKind(r),
          username: r.username as Username,
          l1Server: r.l1Server as L1ServerUrl | null,
          issuedAt: new Date(millis(r.issuedAt)),
          expiresAt: new Date(millis(r.expiresAt)),
        });
        return;
      case 'revocation':
        db.revocations.set(r.tokenHash, {
          ...withoutKind(r),
          expiresAt: millis(r.expiresAt),
          revokedAt: millis(r.revokedAt),
        });
        return;
      case 'attachment': {
        const servers = db.attachments.get(r.username) ?? new Map<string, number>();
        servers.set(r.l1Server, millis(r.attachedAt));
        db.attachments.set(r.username, servers);
        return;
      }
      case 'asset':
        db.insertAsset({
          ...withoutKind(r),
          name: r.name as AssetName,
          owner: r.owner as Username,
          altText: r.altText ?? null,
          sensitive: r.sensitive ?? false,
          tags: [...r.tags],
          createdAt: new Date(millis(r.createdAt)),
          updatedAt: new Date(millis(r.updatedAt)),
          deletedAt: dateOrNull(r.deletedAt),
        });
        return;
      case 'activity':
        db.activities.push({
          position: r.idx,
          activity: {
            idx: r.idx,
            type: r.type as ActivityType,
            actor: r.actor as Username,
            object: r.object as AssetName,
            published: new Date(millis(r.published)),
          },
          document: r.entry,
        });
        return;
      case 'transparency_log':
        return;
      case 'follower':
        db.restoreFollower(r.username, {
          actor: r.actor,
          inbox: r.inbox,
          sharedInbox: r.sharedInbox,
          followId: r.followId,
          followedAt: millis(r.followedAt),
        });
        return;
      case 'job':
        db.restoreJob({
          kind: r.kind,
          payload: JSON.stringify(r.payload ?? null),
          lane: r.lane,
          state: r.state,
          attempts: r.attempts,
          queuedAt: millis(r.queuedAt),
          runAt: millis(r.runAt),
          lastError: r.lastError,
          replaceKey: r.replaceKey ?? null,
        });
        return;
    }
  }
}

function withoutKind<R extends { record: string }>(r: R): Omit<R, 'record'> {
  const { record: _, ...rest } = r;
  return rest;
}
