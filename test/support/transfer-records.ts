// A store's worth of records in the transfer form, made up but consistent (activities gap-free, jobs naming
// activities that exist), for the round trips of `l2 store export` / `import`.
import type { TransferProfile, TransferRecord } from '../../src/application/ports/store-transfer.js';
import { nodeSha256 } from '@l2/tlog/node-crypto';
import { appendToRightEdge, EMPTY_RIGHT_EDGE, leafHash, rootOfRightEdge, signCheckpoint } from '@l2/tlog';
import { TEST_TLOG_ORIGIN, testNoteSigner } from './tlog-test-key.js';

/** A new account's profile, as every store exports it. */
export const EMPTY_TRANSFER_PROFILE: TransferProfile = {
  displayName: null,
  bio: null,
  avatar: null,
  header: null,
  fields: [],
  pinned: [],
  indexable: false,
  manuallyApprovesFollowers: false,
  alsoKnownAs: [],
};

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const at = (n: number) => new Date(T0 + n * 1000).toISOString();
const hex = (n: number, width = 64) => n.toString(16).padStart(width, '0');

export interface TransferShape {
  readonly users: number;
  readonly activities: number;
  /** The size of the log's checkpoint (signed with the test key): all the activities unless said. */
  readonly checkpointAt?: number;
}

/** The transparency log record of these activity records: the test origin and a checkpoint of `size` entries. */
export function transparencyLogRecord(records: readonly TransferRecord[], size: number): TransferRecord {
  let edge = EMPTY_RIGHT_EDGE;
  for (const r of records)
    if (r.record === 'activity' && r.idx < size)
      edge = appendToRightEdge(
        nodeSha256,
        edge,
        leafHash(nodeSha256, new TextEncoder().encode(r.entry)),
      ).edge;
  const note = signCheckpoint(
    { origin: TEST_TLOG_ORIGIN, size, rootHash: rootOfRightEdge(nodeSha256, edge), extensions: [] },
    testNoteSigner(),
  );
  return {
    record: 'transparency_log',
    origin: TEST_TLOG_ORIGIN,
    checkpoint: size === 0 ? null : { size, note },
  };
}

/** Records in TRANSFER_ORDER: every kind, with deleted users and assets, leased-looking and abandoned jobs. */
export function transferRecords({ users, activities, checkpointAt }: TransferShape): TransferRecord[] {
  const names = Array.from({ length: users }, (_, i) => `user_${i}`);
  const records: TransferRecord[] = [];
  names.forEach((username, i) =>
    records.push({
      record: 'user',
      username,
      passwordHash: `$2b$04$${hex(i, 53)}`,
      publicKeyPem: `-----BEGIN PUBLIC KEY-----\n${hex(i)}\n-----END PUBLIC KEY-----\n`,
      privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${hex(i + 1)}\n-----END PRIVATE KEY-----\n`,
      createdAt: at(i),
      deletedAt: i % 7 === 6 ? at(i + 100) : null,
      disabledAt: i % 5 === 3 ? at(i + 50) : null,
      // Every third user has filled in a profile (naming assets of theirs, which the store does not check).
      profile: i % 3 === 1 ? profileOf(i) : EMPTY_TRANSFER_PROFILE,
      profileVersion: i % 3 === 1 ? i + 2 : 0,
    }),
  );
  pushAccountSecurity(records, names);
  records.push({
    record: 'instance_key',
    publicKeyPem: 'instance public',
    privateKeyPem: 'instance private',
  });
  records.push({
    record: 'remote_key',
    keyId: 'https://peer.example/users/bob#main-key',
    owner: 'https://peer.example/users/bob',
    publicKeyPem: 'bob public',
    fetchedAt: at(5),
  });
  names.forEach((username, i) => {
    records.push({
      record: 'issued_token',
      tokenHash: hex(1_000_000 + i),
      jti: `session-${i}`,
      username,
      sessionJti: null,
      l1Server: null,
      issuedAt: at(i),
      expiresAt: at(i + 2_592_000),
    });
    records.push({
      record: 'issued_token',
      tokenHash: hex(2_000_000 + i),
      jti: `scoped-${i}`,
      username,
      sessionJti: `session-${i}`,
      l1Server: 'https://l1.example',
      issuedAt: at(i + 1),
      expiresAt: at(i + 2_592_000),
    });
    // A document client's token (API.md §2.5) keeps where its revocation is told: a URI, or none.
    if (i % 2 === 0)
      records.push({
        record: 'issued_token',
        tokenHash: hex(3_000_000 + i),
        jti: `document-${i}`,
        username,
        sessionJti: `session-${i}`,
        l1Server: 'https://app.example/client.json',
        issuedAt: at(i + 1),
        expiresAt: at(i + 2_592_000),
        documentClient: { backchannelLogoutUri: i % 4 === 0 ? 'https://app.example/logout' : null },
      });
  });
  names.forEach((username, i) => {
    if (i % 3 === 0)
      records.push({
        record: 'revocation',
        tokenHash: hex(2_000_000 + i),
        username,
        expiresAt: at(i + 2_592_000),
        revokedAt: at(i + 10),
      });
  });
  names.forEach((username, i) => {
    if (i % 2 === 0)
      records.push({ record: 'attachment', username, l1Server: 'https://l1.example', attachedAt: at(i) });
  });
  // Each activity creates, updates or deletes one of a few assets per user (the first activity of an asset
  // creates it); the assets come first, in the order they were created.
  const assetOf = (idx: number) => ({ owner: names[idx % users]!, name: `asset-${idx % (users * 3)}` });
  const created = new Map<string, number>();
  for (let idx = 0; idx < activities; idx++)
    if (!created.has(assetOf(idx).name)) created.set(assetOf(idx).name, idx);
  for (const [name, idx] of created)
    records.push({
      record: 'asset',
      name,
      owner: assetOf(idx).owner,
      contentHash: `sha256:${hex(idx)}`,
      mediaType: idx % 2 ? 'image/png' : 'video/mp4',
      url: idx % 5 ? `https://cdn.example/${name}` : null,
      description: `Asset ${name} — «${idx}»`,
      altText: idx % 3 ? `A picture of «${name}»\nin two lines` : null,
      sensitive: idx % 6 === 1,
      tags: idx % 4 ? ['art', `T${idx % 10}`] : [],
      createdAt: at(idx),
      updatedAt: at(idx + 1),
      deletedAt: idx % 11 === 10 ? at(idx + 2) : null,
    });
  for (let idx = 0; idx < activities; idx++) {
    const { owner, name } = assetOf(idx);
    const type = created.get(name) === idx ? 'Create' : idx % 2 ? 'Update' : 'Delete';
    records.push({
      record: 'activity',
      idx,
      type,
      actor: owner,
      object: name,
      published: at(idx),
      // Text that JSON writes in its own ways, kept byte for byte: the entry is the stored text.
      entry: JSON.stringify({
        id: `http://l2.test/activities/${idx}`,
        type,
        actor: `http://l2.test/users/${owner}`,
        n: idx,
        content: `«${idx}» \u2028 🎨 "quoted" </script>`,
      }),
    });
  }
  records.push(transparencyLogRecord(records, checkpointAt ?? activities));
  names.forEach((username, i) => {
    if (i % 2 === 1)
      records.push({
        record: 'follower',
        username,
        actor: `https://peer.example/users/f${i}`,
        inbox: `https://peer.example/users/f${i}/inbox`,
        sharedInbox: i % 4 === 1 ? 'https://peer.example/inbox' : null,
        followId: i % 4 === 1 ? `https://peer.example/follows/${i}` : null,
        followedAt: at(i),
      });
  });
  // Every third user (from the third) is locked and has two Follows waiting, from two servers, in the order asked.
  names.forEach((username, i) => {
    if (i % 3 === 2)
      for (const peer of ['peer.example', 'other.example'])
        records.push({
          record: 'follow_request',
          id: `req-${peer}-${i}`,
          username,
          actor: `https://${peer}/users/r${i}`,
          inbox: `https://${peer}/users/r${i}/inbox`,
          sharedInbox: peer === 'peer.example' ? 'https://peer.example/inbox' : null,
          followId: peer === 'peer.example' ? `https://peer.example/follows/r${i}` : null,
          requestedAt: at(200 + i),
        });
  });
  // Every fourth user (from the first) blocks an actor, in the order blocked; user_0 blocks two.
  names.forEach((username, i) => {
    if (i % 4 === 0)
      for (const n of i === 0 ? [0, 1] : [i])
        records.push({
          record: 'actor_block',
          id: `block-${i}-${n}`,
          username,
          actor: `https://rude.example/users/b${n}`,
          inbox: `https://rude.example/users/b${n}/inbox`,
          createdAt: at(300 + i + n),
        });
  });
  records.push(...DOMAIN_RULE_RECORDS);
  for (let i = 0; i < Math.min(activities, 50); i++)
    records.push({
      record: 'job',
      kind: i % 2 ? 'activity_delivery' : 'revocation_notice',
      payload:
        i % 2 ? { idx: i, inbox: 'https://peer.example/inbox' } : { tokenHash: hex(i), username: names[0] },
      lane: i % 2 ? 'https://peer.example' : 'https://l1.example',
      state: i % 9 === 8 ? 'abandoned' : 'pending',
      attempts: i % 4,
      queuedAt: at(i),
      runAt: at(i + 60),
      lastError: i % 4 ? 'answered 503' : null,
    });
  // An Accept waiting, holding its key, beside an older one of the same key given up.
  for (const state of ['abandoned', 'pending'] as const)
    records.push({
      record: 'job',
      kind: 'document_delivery',
      payload: {
        signer: names[0],
        inbox: 'https://peer.example/users/f1/inbox',
        document: { type: 'Accept' },
      },
      lane: 'https://peer.example',
      state,
      attempts: 0,
      queuedAt: at(0),
      runAt: at(0),
      lastError: state === 'abandoned' ? 'answered 410' : null,
      replaceKey: ACCEPT_KEY,
    });
  return records;
}

/** A filled-in profile of user `i`: every field, texts that JSON escapes. */
function profileOf(i: number): TransferProfile {
  return {
    displayName: `User ${i} — «Ünïcödé» 🎨`,
    bio: `Line one of ${i}.\n\nAnd "two", with <b>tags</b> & https://site.example/${i}`,
    avatar: `asset-${i}`,
    header: i % 2 ? null : `asset-${i + 1}`,
    fields: [
      { name: 'Site', value: `https://site.example/${i}` },
      { name: 'Tab\there', value: '' },
    ],
    pinned: [`asset-${i}`, `asset-${i + 2}`],
    indexable: i % 2 === 1,
    manuallyApprovesFollowers: i % 3 === 1,
    alsoKnownAs: i % 2 ? [`https://elsewhere.example/users/user_${i}`] : [],
    // Every seventh has moved (API.md §4.3): the move rides with the profile.
    ...(i % 7 === 1
      ? { move: { movedTo: `https://new.example/users/${i}`, movedAt: at(i), lastMovedAt: at(i), moves: 1 } }
      : {}),
  };
}

/**
 * The same records as a file exported before profiles, alt text and sensitive assets existed holds them: users
 * without `profile` and `profileVersion`, assets without `altText` and `sensitive`.
 */
/** The kinds of format 3 (issue 28): what protects each account, and its history. */
export const ACCOUNT_SECURITY_KINDS: readonly TransferRecord['record'][] = [
  'totp_factor',
  'recovery_code',
  'passkey',
  'account_event',
];

/** The kinds of format 4 (issue 37): follow requests, actor blocks and the operator's domain rules. */
export const FORMAT_4_KINDS: readonly TransferRecord['record'][] = [
  'follow_request',
  'actor_block',
  'domain_rule',
];

/**
 * The operator's domain rules, in the order every store exports them: by time made, then kind, then host (two made
 * in one `blockMany` share a time) — a name, an IDN as punycode, an IPv4 and an IPv6 address. No follower of
 * transferRecords is on a blocked host (a block removes them; an import does not judge what it is given).
 */
export const DOMAIN_RULE_RECORDS: readonly TransferRecord[] = [
  { record: 'domain_rule', kind: 'allow', host: 'friends.example', createdAt: at(10) },
  { record: 'domain_rule', kind: 'block', host: 'spam.example', createdAt: at(10) },
  { record: 'domain_rule', kind: 'block', host: 'xn--bcher-kva.example', createdAt: at(10) },
  { record: 'domain_rule', kind: 'block', host: '203.0.113.9', createdAt: at(20) },
  { record: 'domain_rule', kind: 'block', host: '[2001:db8::1]', createdAt: at(30) },
];

/** The records as a file of version 3 holds them: no follow request, actor block or domain rule. */
export const asVersion3 = (records: readonly TransferRecord[]): TransferRecord[] =>
  records.filter((r) => !FORMAT_4_KINDS.includes(r.record));

/**
 * The records as a file of version 1 or 2 holds them: no second factor, recovery code, passkey or history (and, as
 * in every file before version 4, no domain rule).
 */
export const withoutAccountSecurity = (records: readonly TransferRecord[]): TransferRecord[] =>
  asVersion3(records).filter((r) => !ACCOUNT_SECURITY_KINDS.includes(r.record));

/**
 * Every fourth user has two-step sign-in with three recovery codes (one used), every third a passkey (some synced,
 * some used), and the history of it — each kind in the order the stores export it (TOTP and codes by username as
 * text, passkeys and history as written).
 */
function pushAccountSecurity(records: TransferRecord[], names: readonly string[]): void {
  const withTotp = names.filter((_, i) => i % 4 === 1);
  const withPasskey = names.filter((_, i) => i % 3 === 2);
  const byText = (list: readonly string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const username of byText(withTotp))
    records.push({
      record: 'totp_factor',
      username,
      secret: `JBSWY3DPEHPK3PXP${username.toUpperCase().replace(/[^A-Z2-7]/g, 'A')}`,
      enabledAt: at(40),
      lastUsedStep: 59_000_000 + username.length,
    });
  for (const username of byText(withTotp))
    for (let k = 0; k < 3; k++)
      records.push({
        record: 'recovery_code',
        username,
        codeHash: hex(3_000_000 + k),
        usedAt: k === 0 ? at(60) : null,
      });
  withPasskey.forEach((username, k) =>
    records.push({
      record: 'passkey',
      credentialId: `cred-${username}`,
      username,
      userHandle: `handle-${username}`,
      name: `Phone of «${username}»`,
      publicKey: `pQECAyYgASFYI${hex(k, 8)}`,
      counter: k * 3,
      transports: k % 2 ? ['internal', 'hybrid'] : [],
      backupEligible: k % 2 === 1,
      createdAt: at(70 + k),
      lastUsedAt: k % 2 ? at(80 + k) : null,
    }),
  );
  for (const username of withTotp)
    records.push({
      record: 'account_event',
      username,
      kind: 'second_factor_enabled',
      detail: null,
      at: at(40),
      address: '2001:db8::7',
    });
  for (const username of withPasskey)
    records.push({
      record: 'account_event',
      username,
      kind: 'passkey_added',
      detail: `Phone of «${username}»`,
      at: at(70),
      address: '192.0.2.9',
    });
}

export function withoutProfilesAndAltText(records: readonly TransferRecord[]): TransferRecord[] {
  return withoutAccountSecurity(records).map((r) => {
    if (r.record === 'user') {
      const { profile: _p, profileVersion: _v, ...rest } = r;
      return rest;
    }
    if (r.record === 'asset') {
      const { altText: _a, sensitive: _s, ...rest } = r;
      return rest;
    }
    return r;
  });
}

/** The key of the Accept jobs of transferRecords. */
export const ACCEPT_KEY = 'accept user_0 https://peer.example/users/f1';

export async function* streamOf<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
