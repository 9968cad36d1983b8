// The shared, real credentials and the one real signature that every seeded record reuses.
import { RsaKeyPairGenerator } from '../src/adapters/crypto/rsa-key-pair-generator.js';
import { BcryptPasswordHasher } from '../src/adapters/crypto/bcrypt-password-hasher.js';
import { JsonLdActivitySigner } from '../src/adapters/crypto/ld-signature/json-ld-activity-signer.js';
import type { Activity } from '../src/domain/activity.js';
import type { AssetChange } from '../src/application/ports/activity-log.js';
import { activityDocument } from '../src/domain/activity-document.js';
import { Urls } from '../src/domain/activity-streams.js';
import {
  ALT_TEXT_MAX_CHARACTERS,
  DESCRIPTION_MAX_CHARACTERS,
  TAG_MAX_CHARACTERS,
  TAGS_MAX,
  URL_MAX_CHARACTERS,
  type Asset,
  type AssetName,
} from '../src/domain/asset.js';
import { passwordBytesForHashing } from '../src/domain/password.js';
import type { Profile } from '../src/domain/profile.js';
import type { Username } from '../src/domain/user.js';
import type { SeedOptions, SeedUsernames } from './seed-types.js';

export interface SeedFixtures {
  readonly urls: Urls;
  readonly usernames: { readonly [K in keyof SeedUsernames]: Username };
  /** One real bcrypt hash (of the shared password, at the configured cost) and one real RSA-2048 key pair. */
  readonly credentials: { passwordHash: string; publicKeyPem: string; privateKeyPem: string };
  /** The signature of one real document, signed by the real signer with the shared key. */
  readonly signature: unknown;
  readonly seconds: number;
}

export const BENCH_USERNAMES: SeedUsernames = {
  client: 'bench_client',
  heavy: 'bench_heavy',
  light: 'bench_light',
};

/**
 * Hashing 100,000 passwords at cost 12 and generating 100,000 key pairs would take about an hour and tell nothing
 * about reads, so every user shares one hash and one key pair; likewise every activity carries the signature of
 * one real document (valid for that document only). The bench measures reads, which never check signatures.
 */
export async function seedFixtures(options: SeedOptions): Promise<SeedFixtures> {
  const started = process.hrtime.bigint();
  const urls = Urls.of(options.publicUrl);
  const [passwordHash, keys] = await Promise.all([
    new BcryptPasswordHasher(options.bcryptCost).hash(passwordBytesForHashing(options.password)),
    new RsaKeyPairGenerator(1).generate(),
  ]);
  const usernames = {
    client: BENCH_USERNAMES.client as Username,
    heavy: BENCH_USERNAMES.heavy as Username,
    light: BENCH_USERNAMES.light as Username,
  };
  const published = new Date();
  const unsigned = activityDocument({
    idx: 0,
    type: 'Create',
    asset: benchAsset(0, usernames.heavy, published),
    published,
    urls,
  });
  const signed = await new JsonLdActivitySigner().sign(
    unsigned,
    { privateKeyPem: keys.privateKeyPem, keyId: urls.keyId(usernames.heavy) },
    published,
  );
  return {
    urls,
    usernames,
    credentials: { passwordHash, ...keys },
    signature: signed.signature,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

export function benchAsset(idx: number, owner: Username, at: Date): Asset {
  return {
    name: `bench-${idx}` as AssetName,
    owner,
    contentHash: `sha256:${idx.toString(16).padStart(64, '0')}`,
    mediaType: 'image/png',
    url: `https://cdn.example/bench/${idx}.png`,
    description: `Benchmark asset number ${idx}.`,
    altText: null,
    sensitive: false,
    tags: ['bench'],
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  };
}

/** `count` characters outside the Basic Multilingual Plane (four UTF-8 bytes each), varied by `seed`. */
function astral(count: number, seed: number): string {
  let state = (seed * 2_654_435_761 + 1) >>> 0;
  const points: number[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    points.push(0x2_0000 + (state % 0xa6d0)); // CJK Unified Ideographs Extension B
  }
  return String.fromCodePoint(...points);
}

/**
 * The fattest asset a user can write (issue 33): the longest description and alt text in four-byte characters that
 * compress poorly, the longest URL, the most and longest tags — an activity of about 35 KB.
 */
export function fatBenchAsset(idx: number, owner: Username, at: Date): Asset {
  const url = `https://cdn.example/bench/${idx}/`;
  return {
    ...benchAsset(idx, owner, at),
    url: url + 'a'.repeat(URL_MAX_CHARACTERS - url.length),
    description: astral(DESCRIPTION_MAX_CHARACTERS, idx),
    altText: astral(ALT_TEXT_MAX_CHARACTERS, idx + 1),
    tags: Array.from({ length: TAGS_MAX }, (_, t) => `t${t}n${idx}`.padEnd(TAG_MAX_CHARACTERS, 'x')),
  };
}

/** A Create of a new asset at `idx`: the real document shape for that idx, with the one shared signature. */
export function benchActivity(
  f: SeedFixtures,
  idx: number,
  owner: Username,
  published: Date,
  assetOf: (idx: number, owner: Username, at: Date) => Asset = benchAsset,
): { activity: Activity; change: AssetChange } {
  const asset = assetOf(idx, owner, published);
  const document = {
    ...activityDocument({ idx, type: 'Create', asset, published, urls: f.urls }),
    signature: f.signature,
  };
  return {
    activity: { idx, type: 'Create', actor: owner, object: asset.name, published, document },
    change: { kind: 'create', asset },
  };
}

/**
 * The assets a regular user owns, the first `count` of them: seed.ts hands activities round-robin to the regular
 * users (idx ≡ n − 1 modulo their number), except every fifth (the heavy user's) and every 5,000th + 1 (the light
 * user's).
 */
function ownedAssets(n: number, regularCount: number, activities: number, count: number): AssetName[] {
  const owned: AssetName[] = [];
  for (let idx = n - 1; idx < activities && owned.length < count; idx += regularCount)
    if (idx % 5 !== 0 && idx % 5000 !== 1) owned.push(`bench-${idx}` as AssetName);
  return owned;
}

/**
 * A full profile for regular user n (issue 25): a display name, a bio with a link, an avatar and a header (two of
 * their own pictures), four fields, three pins and the search opt-in — so the actor a peer fetches is the size a
 * filled-in profile makes it (about 3 KiB), not the bare account's.
 */
export function benchProfile(n: number, regularCount: number, activities: number): Profile {
  const [avatar = null, header = null, ...rest] = ownedAssets(n, regularCount, activities, 4);
  return {
    displayName: `Bench User ${n}`,
    bio:
      `Paints harbours, cranes and the sea at dusk; user number ${n} of the benchmark.\n` +
      'Shows at the harbour gallery every summer.\n\nPortfolio: https://portfolio.example/bench — commissions open.',
    avatar,
    header,
    fields: [
      { name: 'Website', value: `https://bench.example/u${n}` },
      { name: 'Gallery', value: 'https://gallery.example/bench' },
      { name: 'Pronouns', value: 'they/them' },
      { name: 'Based in', value: 'The harbour' },
    ],
    pinned: [avatar, ...rest].filter((name): name is AssetName => name !== null).slice(0, 3),
    indexable: true,
    manuallyApprovesFollowers: false,
  };
}
