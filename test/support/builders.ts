import type { Follower } from '../../src/domain/follower.js';
import { acceptJob, type JobSpec } from '../../src/domain/jobs.js';
import type { Activity, ActivityType } from '../../src/domain/activity.js';
import { parseAssetName, type Asset, type AssetName } from '../../src/domain/asset.js';
import { normaliseL1Server, type L1ServerUrl } from '../../src/domain/l1-server.js';
import { EMPTY_PROFILE, type Profile } from '../../src/domain/profile.js';
import { revocationOf, type IssuedToken, type Revocation } from '../../src/domain/revocation.js';
import { normaliseUsername, type User, type Username } from '../../src/domain/user.js';

/** The instant test data is built around; tests move from it with `later()`. */
export const T0 = new Date('2026-01-01T00:00:00.000Z');
export const L2_SERVER = 'https://l2.example';

export const later = (ms: number, from: Date = T0): Date => new Date(from.getTime() + ms);
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

let sequence = 0;
const next = (): number => ++sequence;

export function aUsername(name: string): Username {
  const result = normaliseUsername(name);
  if (!result.ok) throw new Error(`Not a valid username in test data: ${name}`);
  return result.value;
}

export function anL1Server(url: string): L1ServerUrl {
  const result = normaliseL1Server(url);
  if (!result.ok) throw new Error(`Not a valid L1 server in test data: ${url}`);
  return result.value;
}

/** Fake PEM text: the store keeps keys as opaque strings and never parses them. */
const fakePem = (label: string, n: number): string =>
  `-----BEGIN ${label}-----\nZmFrZS1rZXktZm9yLXRlc3Rz${n}\n-----END ${label}-----\n`;

export function aUser(overrides: Partial<User> = {}): User {
  const n = next();
  return {
    username: aUsername(`user_${n}`),
    passwordHash: `$2b$04$fakehashfakehashfakehash${n}`,
    publicKeyPem: fakePem('PUBLIC KEY', n),
    privateKeyPem: fakePem('PRIVATE KEY', n),
    createdAt: T0,
    deletedAt: null,
    disabledAt: null,
    // A new account's: empty, at version 0. A fresh copy, so that a test changing it changes no other user.
    profile: { ...EMPTY_PROFILE, fields: [], pinned: [] },
    profileVersion: 0,
    ...overrides,
  };
}

/** A profile with every field filled (names of assets as given; the store does not check them). */
export function aProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    displayName: 'Alice Ünïcödé 🎨',
    bio: 'Paints harbours.\n\nSee https://alice.example — "quoted" & <b>not bold</b>',
    avatar: anAssetName('face'),
    header: anAssetName('banner'),
    fields: [
      { name: 'Site', value: 'https://alice.example' },
      { name: 'Pronouns', value: 'she/her' },
    ],
    pinned: [anAssetName('sunset'), anAssetName('harbour')],
    indexable: true,
    manuallyApprovesFollowers: false,
    ...overrides,
  };
}

/** A SHA-256-shaped hex string, unique per call. */
export function aTokenHash(): string {
  return next().toString(16).padStart(64, '0');
}

/** An unscoped session token by default; give `l1Server` and `sessionJti` for a scoped one. */
export function anIssuedToken(overrides: Partial<IssuedToken> = {}): IssuedToken {
  const n = next();
  return {
    tokenHash: aTokenHash(),
    jti: `jti-${n}`,
    username: aUsername('alice'),
    sessionJti: null,
    l1Server: null,
    issuedAt: T0,
    expiresAt: later(30 * DAY),
    ...overrides,
  };
}

/** The revocation of a token built by `anIssuedToken(overrides)`: with a notice exactly when it is scoped. */
export function aRevocation(overrides: Partial<IssuedToken> = {}): Revocation {
  return revocationOf(anIssuedToken(overrides), L2_SERVER);
}

export function anAssetName(name: string): AssetName {
  const result = parseAssetName(name);
  if (!result.ok) throw new Error(`Not a valid asset name in test data: ${name}`);
  return result.value;
}

/** A live asset of alice's with every field filled and unique per call. */
export function anAsset(overrides: Partial<Asset> = {}): Asset {
  const n = next();
  return {
    name: anAssetName(`asset-${n}`),
    owner: aUsername('alice'),
    contentHash: `sha256:${n.toString(16).padStart(64, '0')}`,
    mediaType: 'image/png',
    url: `https://cdn.example/assets/${n}.png`,
    description: `Test asset ${n}: "quoted", ünïcödé and a\nnew line`,
    altText: null,
    sensitive: false,
    tags: ['test', `n${n}`],
    // Fresh dates, so that a test changing one cannot move T0 for the others.
    createdAt: new Date(T0),
    updatedAt: new Date(T0),
    deletedAt: null,
    ...overrides,
  };
}

/**
 * A Create by alice at idx 0 by default, whose document is a signed ActivityStreams-like object exercising every
 * JSON type; `type`, `actor`, `object` and `idx` given in `overrides` are reflected in the document.
 */
export function anActivity(overrides: Partial<Activity> = {}): Activity {
  const n = next();
  const idx = overrides.idx ?? 0;
  const type: ActivityType = overrides.type ?? 'Create';
  const actor = overrides.actor ?? aUsername('alice');
  const object = overrides.object ?? anAssetName(`asset-${n}`);
  const published = overrides.published ?? new Date(T0);
  return {
    idx,
    type,
    actor,
    object,
    published,
    document: {
      '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
      id: `${L2_SERVER}/activities/${idx}`,
      type,
      actor: `${L2_SERVER}/users/${actor}`,
      object: { id: `${L2_SERVER}/assets/${object}`, type: 'Image', name: object, tags: ['a', 'b'] },
      published: published.toISOString(),
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      cc: [],
      summary: 'Ünïcödé “quotes”, emoji 🎨, <html> & a\u0000 nul',
      number: 1.5,
      negative: -42,
      flag: true,
      nothing: null,
      nested: { deeper: { deepest: [1, [2, [3]], { four: 4 }] } },
      signature: {
        type: 'RsaSignature2017',
        creator: `${L2_SERVER}/users/${actor}#main-key`,
        signatureValue: `sig-${n}`,
      },
    },
    ...overrides,
  };
}

let followerCounter = 0;

/** A follower of alice on its own host (with a shared inbox), unless overridden. */
export function aFollower(overrides: Partial<Follower> = {}): Follower {
  const n = ++followerCounter;
  const host = `peer${n}.example`;
  return {
    username: aUsername('alice'),
    actor: `https://${host}/users/someone`,
    inbox: `https://${host}/users/someone/inbox`,
    sharedInbox: `https://${host}/inbox`,
    followId: `https://${host}/follows/${n}`,
    followedAt: T0,
    ...overrides,
  };
}

/** The Accept job a Follow queues, as the inbox would (one waits per user and follower: see acceptJob). */
export function anAcceptJob(follower: Follower): JobSpec<'document_delivery'> {
  return acceptJob(
    {
      signer: follower.username,
      inbox: follower.inbox,
      document: {
        type: 'Accept',
        actor: `${L2_SERVER}/users/${follower.username}`,
        object: follower.followId,
      },
    },
    follower.actor,
  );
}
