// Each stored record to and from its record in the export file of `l2 store export` / `import`, once for every
// store: times as ISO 8601, and the defaults of files written before a field existed (here and nowhere else). Every
// store's transfer is a table over these and its own codecs, so the file is the same bytes whichever store wrote it.
import type { AccountEventKind } from '../../domain/account-security.js';
import type { ActivityType } from '../../domain/activity.js';
import type { AssetName } from '../../domain/asset.js';
import type { L1ServerUrl } from '../../domain/l1-server.js';
import type { Username } from '../../domain/user.js';
import { moveFromStored, profileFromStored, storedProfile } from './stored-profile.js';

import { FOLLOW_CONTROL_CODECS } from './follow-control-transfer-codecs.js';
import type { StoredKind, StoredRecords, TransferRecordOf } from './stored-records.js';
import { millis } from './transfer-checks.js';

export interface TransferCodec<K extends StoredKind> {
  toTransfer(value: StoredRecords[K]): TransferRecordOf<K>;
  /** Refuses (InvalidTransferError) a time that is not one. */
  fromTransfer(record: TransferRecordOf<K>): StoredRecords[K];
}

const iso = (at: Date): string => at.toISOString();
const isoOrNull = (at: Date | null): string | null => (at === null ? null : at.toISOString());
const date = (text: string): Date => new Date(millis(text));
const dateOrNull = (text: string | null): Date | null => (text === null ? null : date(text));
const user = (name: string) => name as Username;

export const TRANSFER_CODECS: { readonly [K in StoredKind]: TransferCodec<K> } = {
  user: {
    toTransfer: (u) => ({
      record: 'user',
      username: u.username,
      passwordHash: u.passwordHash,
      publicKeyPem: u.publicKeyPem,
      privateKeyPem: u.privateKeyPem,
      createdAt: iso(u.createdAt),
      deletedAt: isoOrNull(u.deletedAt),
      disabledAt: isoOrNull(u.disabledAt),
      profile: storedProfile(u.profile, u.move),
      profileVersion: u.profileVersion,
    }),
    fromTransfer: (r) => ({
      username: user(r.username),
      passwordHash: r.passwordHash,
      publicKeyPem: r.publicKeyPem,
      privateKeyPem: r.privateKeyPem,
      createdAt: date(r.createdAt),
      deletedAt: dateOrNull(r.deletedAt),
      disabledAt: dateOrNull(r.disabledAt),
      // Files exported before profiles existed carry none: the empty profile, at version 0.
      profile: profileFromStored(r.profile),
      profileVersion: r.profileVersion ?? 0,
      move: moveFromStored(r.profile),
    }),
  },
  totp_factor: {
    toTransfer: (t) => ({
      record: 'totp_factor',
      username: t.username,
      secret: t.secret,
      enabledAt: iso(t.enabledAt),
      lastUsedStep: t.lastUsedStep,
    }),
    fromTransfer: (r) => ({
      username: user(r.username),
      secret: r.secret,
      enabledAt: date(r.enabledAt),
      lastUsedStep: r.lastUsedStep,
    }),
  },
  recovery_code: {
    toTransfer: (c) => ({
      record: 'recovery_code',
      username: c.username,
      codeHash: c.hash,
      usedAt: isoOrNull(c.usedAt),
    }),
    fromTransfer: (r) => ({ username: user(r.username), hash: r.codeHash, usedAt: dateOrNull(r.usedAt) }),
  },
  passkey: {
    toTransfer: (p) => ({
      record: 'passkey',
      credentialId: p.credentialId,
      username: p.username,
      userHandle: p.userHandle,
      name: p.name,
      publicKey: p.publicKey,
      counter: p.counter,
      transports: [...p.transports],
      backupEligible: p.backupEligible,
      createdAt: iso(p.createdAt),
      lastUsedAt: isoOrNull(p.lastUsedAt),
    }),
    fromTransfer: (r) => ({
      credentialId: r.credentialId,
      username: user(r.username),
      userHandle: r.userHandle,
      name: r.name,
      publicKey: r.publicKey,
      counter: r.counter,
      transports: [...r.transports],
      backupEligible: r.backupEligible,
      createdAt: date(r.createdAt),
      lastUsedAt: dateOrNull(r.lastUsedAt),
    }),
  },
  account_event: {
    toTransfer: (e) => ({
      record: 'account_event',
      username: e.username,
      kind: e.kind,
      detail: e.detail,
      at: iso(e.at),
      address: e.address,
    }),
    fromTransfer: (r) => ({
      username: user(r.username),
      kind: r.kind as AccountEventKind,
      detail: r.detail,
      at: date(r.at),
      address: r.address,
    }),
  },
  instance_key: {
    toTransfer: (k) => ({
      record: 'instance_key',
      publicKeyPem: k.publicKeyPem,
      privateKeyPem: k.privateKeyPem,
    }),
    // The file does not say when the key was made: the import is its making in this store.
    fromTransfer: (r) => ({
      publicKeyPem: r.publicKeyPem,
      privateKeyPem: r.privateKeyPem,
      createdAt: new Date(),
    }),
  },
  remote_key: {
    toTransfer: (k) => ({
      record: 'remote_key',
      keyId: k.keyId,
      owner: k.owner,
      publicKeyPem: k.publicKeyPem,
      fetchedAt: iso(k.fetchedAt),
    }),
    fromTransfer: (r) => ({
      keyId: r.keyId,
      owner: r.owner,
      publicKeyPem: r.publicKeyPem,
      fetchedAt: date(r.fetchedAt),
    }),
  },
  issued_token: {
    toTransfer: (t) => ({
      record: 'issued_token',
      tokenHash: t.tokenHash,
      jti: t.jti,
      username: t.username,
      sessionJti: t.sessionJti,
      l1Server: t.l1Server,
      issuedAt: iso(t.issuedAt),
      expiresAt: iso(t.expiresAt),
      ...(t.documentClient ? { documentClient: { ...t.documentClient } } : {}),
    }),
    fromTransfer: (r) => ({
      tokenHash: r.tokenHash,
      jti: r.jti,
      username: user(r.username),
      sessionJti: r.sessionJti,
      l1Server: r.l1Server as L1ServerUrl | null,
      issuedAt: date(r.issuedAt),
      expiresAt: date(r.expiresAt),
      ...(r.documentClient
        ? { documentClient: { backchannelLogoutUri: r.documentClient.backchannelLogoutUri } }
        : {}),
    }),
  },
  revocation: {
    toTransfer: (r) => ({
      record: 'revocation',
      tokenHash: r.tokenHash,
      username: r.username,
      expiresAt: iso(r.expiresAt),
      revokedAt: iso(r.revokedAt),
    }),
    fromTransfer: (r) => ({
      tokenHash: r.tokenHash,
      username: user(r.username),
      expiresAt: date(r.expiresAt),
      revokedAt: date(r.revokedAt),
    }),
  },
  attachment: {
    toTransfer: (a) => ({
      record: 'attachment',
      username: a.username,
      l1Server: a.l1Server,
      attachedAt: iso(a.attachedAt),
    }),
    fromTransfer: (r) => ({
      username: user(r.username),
      l1Server: r.l1Server as L1ServerUrl,
      attachedAt: date(r.attachedAt),
    }),
  },
  asset: {
    toTransfer: (a) => ({
      record: 'asset',
      name: a.name,
      owner: a.owner,
      contentHash: a.contentHash,
      mediaType: a.mediaType,
      url: a.url,
      description: a.description,
      altText: a.altText,
      sensitive: a.sensitive,
      tags: [...a.tags],
      createdAt: iso(a.createdAt),
      updatedAt: iso(a.updatedAt),
      deletedAt: isoOrNull(a.deletedAt),
    }),
    fromTransfer: (r) => ({
      name: r.name as AssetName,
      owner: user(r.owner),
      contentHash: r.contentHash,
      mediaType: r.mediaType,
      url: r.url,
      description: r.description,
      // Files exported before alt text and sensitive assets existed: none, and not sensitive.
      altText: r.altText ?? null,
      sensitive: r.sensitive ?? false,
      tags: [...r.tags],
      createdAt: date(r.createdAt),
      updatedAt: date(r.updatedAt),
      deletedAt: dateOrNull(r.deletedAt),
    }),
  },
  activity: {
    toTransfer: (a) => ({
      record: 'activity',
      idx: a.idx,
      type: a.type,
      actor: a.actor,
      object: a.object,
      published: iso(a.published),
      entry: a.entry,
    }),
    fromTransfer: (r) => ({
      idx: r.idx,
      type: r.type as ActivityType,
      actor: user(r.actor),
      object: r.object as AssetName,
      published: date(r.published),
      entry: r.entry,
    }),
  },
  follower: {
    toTransfer: (f) => ({
      record: 'follower',
      username: f.username,
      actor: f.actor,
      inbox: f.inbox,
      sharedInbox: f.sharedInbox,
      followId: f.followId,
      followedAt: iso(f.followedAt),
    }),
    fromTransfer: (r) => ({
      username: user(r.username),
      actor: r.actor,
      inbox: r.inbox,
      sharedInbox: r.sharedInbox,
      followId: r.followId,
      followedAt: date(r.followedAt),
    }),
  },
  ...FOLLOW_CONTROL_CODECS,
  job: {
    toTransfer: (j) => ({
      record: 'job',
      kind: j.kind,
      payload: JSON.parse(j.payload) as unknown,
      lane: j.lane,
      state: j.state,
      attempts: j.attempts,
      queuedAt: iso(j.queuedAt),
      runAt: iso(j.runAt),
      lastError: j.lastError,
      // Left out when the job has none, as files exported before keys existed.
      ...(j.replaceKey === null ? {} : { replaceKey: j.replaceKey }),
    }),
    fromTransfer: (r) => ({
      kind: r.kind,
      payload: JSON.stringify(r.payload ?? null),
      lane: r.lane,
      state: r.state,
      attempts: r.attempts,
      queuedAt: date(r.queuedAt),
      runAt: date(r.runAt),
      lastError: r.lastError,
      replaceKey: r.replaceKey ?? null,
    }),
  },
};
