/**
 * Small hand-written documents for the peer-rules tests: the shape L2 emits today (an `Image` whose `url`
 * is the file, audience only on the activity, Hashtags without `href`) and the shapes API.md §4.1/§4.2
 * specify. Each test changes one thing at a time with `withObject`.
 */
import type { Json } from '../../support/peer-rules/index.js';

export const BASE = 'https://l2.example';
export const ALICE = `${BASE}/users/alice`;
export const FOLLOWERS = `${ALICE}/followers`;
export const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
export const FILE = 'https://cdn.example/sunset.png';
export const PAGE = `${BASE}/assets/sunset`;
export const PEM =
  '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n';

export const CONTEXT = [
  'https://www.w3.org/ns/activitystreams',
  'https://w3id.org/security/v1',
  {
    Hashtag: 'as:Hashtag',
    sensitive: 'as:sensitive',
    digestMultibase: 'https://w3id.org/security#digestMultibase',
  },
];

/** The activity L2 emits today for an image asset (src/domain/activity-streams.ts at branch `design`). */
export function todaysImageCreate(): Json {
  return {
    '@context': CONTEXT,
    id: `${BASE}/activities/7`,
    type: 'Create',
    actor: ALICE,
    published: '2026-01-01T00:00:00.000Z',
    to: [PUBLIC],
    cc: [FOLLOWERS],
    object: {
      id: PAGE,
      type: 'Image',
      name: 'sunset',
      attributedTo: ALICE,
      mediaType: 'image/png',
      url: FILE,
      content: 'Sunset over the harbour',
      published: '2026-01-01T00:00:00.000Z',
      tag: [{ type: 'Hashtag', name: '#art' }],
    },
  };
}

/** The same asset as API.md §4.1 specifies: a Note with its own audience and one Document attachment. */
export function apiNote(): Json {
  return {
    id: PAGE,
    type: 'Note',
    attributedTo: ALICE,
    to: [PUBLIC],
    cc: [FOLLOWERS],
    url: PAGE,
    content:
      '<p><strong>sunset</strong></p><p>Sunset over the harbour</p><p><a href="https://l2.example/tags/art" class="mention hashtag" rel="tag">#<span>art</span></a></p>',
    sensitive: false,
    attachment: [
      {
        type: 'Document',
        mediaType: 'image/png',
        url: FILE,
        name: 'The sun setting over the harbour',
        digestMultibase: 'zQmYtUc4iTCbbfVSDNKvtQqrfyezPPnFvE33wFmutw9PBBk',
      },
    ],
    tag: [{ type: 'Hashtag', href: `${BASE}/tags/art`, name: '#art' }],
    published: '2026-01-01T00:00:00.000Z',
  };
}

export function createOf(object: Json, activity: Json = {}): Json {
  return {
    '@context': CONTEXT,
    id: `${BASE}/activities/8`,
    type: 'Create',
    actor: ALICE,
    published: '2026-01-01T00:00:00.000Z',
    to: [PUBLIC],
    cc: [FOLLOWERS],
    object,
    ...activity,
  };
}

export function apiNoteCreate(): Json {
  return createOf(apiNote());
}

/** apiNote with some fields replaced (undefined removes a field). */
export function withObject(changes: Json, base: Json = apiNote()): Json {
  const object: Json = { ...base, ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete object[k];
  return createOf(object);
}

/** The first attachment of apiNote with some fields replaced. */
export function withAttachment(changes: Json): Json {
  const first = (apiNote().attachment as Json[])[0] as Json;
  const attachment: Json = { ...first, ...changes };
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete attachment[k];
  return withObject({ attachment: [attachment] });
}

/** The actor API.md §4.2 specifies, with a filled-in profile. */
export function apiActor(changes: Json = {}): Json {
  const actor: Json = {
    '@context': [
      'https://www.w3.org/ns/activitystreams',
      'https://w3id.org/security/v1',
      {
        manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
        toot: 'http://joinmastodon.org/ns#',
        discoverable: 'toot:discoverable',
        indexable: 'toot:indexable',
        featured: { '@id': 'toot:featured', '@type': '@id' },
        schema: 'http://schema.org#',
        PropertyValue: 'schema:PropertyValue',
        value: 'schema:value',
      },
    ],
    id: ALICE,
    type: 'Person',
    preferredUsername: 'alice',
    name: 'Alice Example',
    summary: '<p>Paints harbours.</p>',
    url: ALICE,
    inbox: `${ALICE}/inbox`,
    outbox: `${ALICE}/outbox`,
    followers: FOLLOWERS,
    following: `${ALICE}/following`,
    featured: `${ALICE}/featured`,
    endpoints: { sharedInbox: `${BASE}/inbox` },
    published: '2026-01-01T00:00:00.000Z',
    manuallyApprovesFollowers: false,
    discoverable: true,
    indexable: true,
    icon: {
      type: 'Image',
      mediaType: 'image/png',
      url: 'https://cdn.example/alice.png',
      name: 'Alice, smiling',
    },
    image: {
      type: 'Image',
      mediaType: 'image/jpeg',
      url: 'https://cdn.example/harbour.jpg',
      name: 'A harbour',
    },
    attachment: [
      {
        type: 'PropertyValue',
        name: 'Site',
        value: '<a href="https://alice.example" rel="me nofollow noopener">https://alice.example</a>',
      },
      { type: 'PropertyValue', name: 'Medium', value: 'oil on canvas' },
    ],
    publicKey: { id: `${ALICE}#main-key`, owner: ALICE, publicKeyPem: PEM },
  };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete actor[k];
    else actor[k] = v;
  }
  return actor;
}
