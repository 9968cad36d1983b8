// Issue 25's documents under Linked Data signatures (API.md §4, §4.1, §4.2): the asset Note in a Create and an
// Update, the actor with its profile, its Update{Person}, the featured collection. Every term they use is defined by
// the signed @context with Mastodon's own definitions, canonicalisation stays in safe mode, and changing any field
// of a signed document — every leaf, one at a time — breaks its signature for Fedify's verifyJsonLd (the reference
// verifier) and for the independent verifier.
import { getDocumentLoader, verifyJsonLd } from '@fedify/fedify';
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import jsonldModule from 'jsonld';
import {
  JsonLdActivitySigner,
  UnsignableDocumentError,
} from '../../src/adapters/crypto/ld-signature/json-ld-activity-signer.js';
import { bundledDocumentLoader } from '../../src/adapters/crypto/ld-signature/bundled-document-loader.js';
import type { JsonLdDocument, SigningKey } from '../../src/application/ports/activity-signer.js';
import { activityDocument } from '../../src/domain/activity-document.js';
import { ACTIVITY_CONTEXT, Urls } from '../../src/domain/activity-streams.js';
import {
  actorDocument,
  featuredCollection,
  profileUpdateDocument,
  type ActorView,
} from '../../src/domain/actor-document.js';
import type { Asset, AssetName } from '../../src/domain/asset.js';
import type { UserProfile, Username } from '../../src/domain/user.js';
import { verifyLdSignature } from '../support/independent-ld-verifier.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

const BASE = 'https://l2.example';
const urls = Urls.of(BASE);
const ALICE = 'alice' as Username;
const ACTOR = urls.actor(ALICE);
const T0 = new Date('2026-03-04T05:06:07.089Z');
const T1 = new Date('2026-03-05T06:07:08.090Z');

/** A private jsonld instance: no context cache shared with src/. */
const jsonld = (jsonldModule as unknown as () => typeof jsonldModule)();

/**
 * Mastodon's definitions of the terms L2 uses, as in `app/helpers/context_helper.rb` (CONTEXT_EXTENSION_MAP:
 * manually_approves_followers, sensitive, hashtag, featured, property_value, discoverable, indexable).
 * `digestMultibase` is not Mastodon's: it is the security vocabulary's term (FEP-ef61, security/data-integrity v2).
 */
const MASTODON_DEFINITIONS: Record<string, unknown> = {
  manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
  sensitive: 'as:sensitive',
  Hashtag: 'as:Hashtag',
  toot: 'http://joinmastodon.org/ns#',
  featured: { '@id': 'toot:featured', '@type': '@id' },
  schema: 'http://schema.org#',
  PropertyValue: 'schema:PropertyValue',
  value: 'schema:value',
  discoverable: 'toot:discoverable',
  indexable: 'toot:indexable',
  digestMultibase: 'https://w3id.org/security#digestMultibase',
};

/** The IRI each new term must expand to (so canonical N-Quads carry it, and the signature covers it). */
const EXPANDED_IRIS = [
  'https://www.w3.org/ns/activitystreams#sensitive',
  'https://www.w3.org/ns/activitystreams#Hashtag',
  'https://w3id.org/security#digestMultibase',
  'https://www.w3.org/ns/activitystreams#manuallyApprovesFollowers',
  'http://joinmastodon.org/ns#featured',
  'http://joinmastodon.org/ns#discoverable',
  'http://joinmastodon.org/ns#indexable',
  'http://schema.org#PropertyValue',
  'http://schema.org#value',
];

function asset(overrides: Partial<Asset> = {}): Asset {
  return {
    name: 'sunset' as AssetName,
    owner: ALICE,
    contentHash: `sha256:${'ab'.repeat(32)}`,
    mediaType: 'image/png',
    url: 'https://cdn.example/sunset.png',
    description: 'Sunset over the harbour <b>not bold</b>\n\nhttps://example.org/more',
    altText: 'An orange sun sinking behind cranes',
    sensitive: true,
    tags: ['art', 'sky'],
    createdAt: T0,
    updatedAt: T0,
    deletedAt: null,
    ...overrides,
  };
}

describe('LD signatures of the fediverse documents (issue 25)', () => {
  const signer = new JsonLdActivitySigner();
  let key: SigningKey;
  let view: ActorView;
  /** The actor as served, with its public key: what Fedify fetches to check a signature. */
  let actor: Doc;
  const signed: Record<string, Doc> = {};

  /** Fedify's loader, but the actor comes from here: nothing leaves the process. */
  const fedifyLoader = getDocumentLoader();
  const documentLoader = async (url: string) =>
    url.startsWith(ACTOR) ? { contextUrl: null, documentUrl: ACTOR, document: actor } : fedifyLoader(url);
  /** Fedify's verdict; a document its vocabulary cannot even parse (an `icon` that is no Image) is refused too. */
  const fedifyVerifies = (doc: Doc) =>
    verifyJsonLd(doc, { documentLoader, contextLoader: documentLoader }).catch(() => false);

  const canonicalNQuads = (doc: Doc): Promise<string> =>
    jsonld.canonize(doc, {
      format: 'application/n-quads',
      documentLoader: bundledDocumentLoader,
      safe: true,
      canonizeOptions: { algorithm: 'URDNA2015' },
    } as unknown as Parameters<typeof jsonld.canonize>[1]);

  before(async () => {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    key = { privateKeyPem: pair.privateKey, keyId: urls.keyId(ALICE) };
    const avatar = asset({ name: 'face' as AssetName, sensitive: false, tags: [] });
    const header = asset({ name: 'banner' as AssetName, altText: null, description: '', sensitive: false });
    const user: UserProfile = {
      username: ALICE,
      publicKeyPem: pair.publicKey,
      createdAt: T0,
      deletedAt: null,
      disabledAt: null,
      profile: {
        displayName: 'Alice <Liddell>',
        bio: 'Paints harbours.\nLives by the sea.\n\nPortfolio: https://alice.example/work',
        avatar: avatar.name,
        header: header.name,
        fields: [
          { name: 'Website', value: 'https://alice.example' },
          { name: 'Pronouns', value: 'she/her' },
        ],
        pinned: ['sunset' as AssetName],
        indexable: true,
        manuallyApprovesFollowers: true,
      },
      profileVersion: 3,
    };
    view = { user, avatar, header };
    actor = actorDocument(view, urls);
    const sign = (doc: Doc) => signer.sign(doc as JsonLdDocument, key, T1);
    const note = asset();
    signed.Create = await sign(
      activityDocument({ idx: 7, type: 'Create', asset: note, published: T0, urls }),
    );
    signed.Update = await sign(
      activityDocument({
        idx: 8,
        type: 'Update',
        asset: { ...note, updatedAt: T1, sensitive: false },
        published: T1,
        urls,
      }),
    );
    signed['Update{Person}'] = await sign(profileUpdateDocument(view, urls));
  });

  it('defines every new term in the signed @context exactly as Mastodon does', () => {
    const [as, security, terms] = ACTIVITY_CONTEXT;
    expect([as, security]).to.deep.equal([
      'https://www.w3.org/ns/activitystreams',
      'https://w3id.org/security/v1',
    ]);
    expect(terms).to.deep.equal(MASTODON_DEFINITIONS);
    for (const document of [...Object.values(signed), actor, featuredCollection(ALICE, [asset()], urls)])
      expect(document['@context']).to.deep.equal(ACTIVITY_CONTEXT);
  });

  it('canonicalises every document in safe mode, each new term as the IRI Mastodon gives it', async () => {
    const documents = [...Object.values(signed), actor, featuredCollection(ALICE, [asset()], urls)];
    const nquads = (
      await Promise.all(documents.map(({ signature: _s, ...doc }) => canonicalNQuads(doc)))
    ).join('');
    for (const iri of EXPANDED_IRIS) expect(nquads, iri).to.include(`<${iri}>`);
    // No property or type fell back to the ActivityStreams context's "@vocab": "_:" (a blank node, unsigned).
    expect(nquads).not.to.match(/^\S+ _:/m);
    expect(nquads).not.to.match(/<http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#type> _:/);
  });

  it('keeps every key of every document through JSON-LD expansion (nothing is dropped, so nothing is unsigned)', async () => {
    for (const [name, document] of Object.entries({ ...signed, actor })) {
      const { signature: _s, ...doc } = document;
      const expanded = JSON.stringify(
        await jsonld.expand(doc, {
          documentLoader: bundledDocumentLoader,
          safe: true,
        } as unknown as Parameters<typeof jsonld.expand>[1]),
      );
      for (const { path, value } of leaves(doc)) {
        if (path.startsWith('@context')) continue;
        if (typeof value === 'string' && !path.endsWith('type'))
          expect(expanded, `${name} ${path}`).to.include(JSON.stringify(value).slice(1, -1));
      }
    }
  });

  for (const name of ['Create', 'Update', 'Update{Person}']) {
    describe(`a signed ${name}`, () => {
      it('verifies with Fedify verifyJsonLd and with the independent verifier', async () => {
        expect(await fedifyVerifies(signed[name]!)).to.equal(true);
        expect(await verifyLdSignature(signed[name]!, actor.publicKey.publicKeyPem)).to.equal(true);
      });

      it('no longer verifies once any one field is changed or removed (every leaf, one at a time)', async function () {
        const document = signed[name]!;
        const paths = leaves(withoutSignature(document)).filter(({ path }) => !path.startsWith('@context'));
        expect(paths.length).to.be.greaterThan(name === 'Update{Person}' ? 35 : 25);
        const survivors: string[] = [];
        for (const { path, value } of paths) {
          for (const [how, tampered] of [
            ['changed', withLeaf(document, path, changed(path, value))],
            ['removed', withLeaf(document, path, undefined)],
          ] as const) {
            // The change is one a processor accepts (safe mode canonicalises it): a failure is the signature's.
            await canonicalNQuads(withoutSignature(tampered));
            const fedify = await fedifyVerifies(tampered);
            const independent = await verifyLdSignature(tampered, actor.publicKey.publicKeyPem);
            if (fedify || independent)
              survivors.push(`${path} ${how} (fedify ${fedify}, independent ${independent})`);
          }
        }
        expect(survivors, 'changes the signature does not see').to.deep.equal([]);
      });
    });
  }

  it('covers the new Note fields and the profile fields by name (the leaves the tamper test walks)', () => {
    const note = leaves(withoutSignature(signed.Create!)).map((l) => l.path);
    for (const path of [
      'object.type',
      'object.to.0',
      'object.cc.0',
      'object.url',
      'object.content',
      'object.sensitive',
      'object.attachment.0.type',
      'object.attachment.0.mediaType',
      'object.attachment.0.url',
      'object.attachment.0.name',
      'object.attachment.0.digestMultibase',
      'object.tag.0.type',
      'object.tag.0.href',
      'object.tag.0.name',
    ])
      expect(note).to.include(path);
    expect(leaves(withoutSignature(signed.Update!)).map((l) => l.path)).to.include('object.updated');
    const person = leaves(withoutSignature(signed['Update{Person}']!)).map((l) => l.path);
    for (const path of [
      'object.name',
      'object.summary',
      'object.icon.url',
      'object.icon.name',
      'object.icon.mediaType',
      'object.image.url',
      'object.attachment.0.type',
      'object.attachment.0.name',
      'object.attachment.0.value',
      'object.featured',
      'object.indexable',
      'object.discoverable',
      'object.manuallyApprovesFollowers',
    ])
      expect(person).to.include(path);
  });

  describe('safe mode stays on: a term the context does not define is refused, not silently left unsigned', () => {
    const refused = async (doc: Doc) => {
      const { signature: _s, ...unsigned } = doc;
      let error: unknown;
      try {
        await signer.sign(unsigned as JsonLdDocument, key, T1);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(UnsignableDocumentError);
    };

    it('Mastodon’s blurhash on the attachment, undefined here', () =>
      refused(withLeaf(signed.Create!, 'object.attachment.0.blurhash', 'LEHV6nWB2yk8pyo0adR*.7kCMdnj')));

    it('Mastodon’s featuredTags on the actor, undefined here', () =>
      refused(withLeaf(signed['Update{Person}']!, 'object.featuredTags', `${ACTOR}/collections/tags`)));

    it('an attachment type no context defines', () =>
      refused(withLeaf(signed.Create!, 'object.attachment.0.type', 'Picture')));
  });
});

/** Every leaf (string, number, boolean) of a JSON document with its dotted path; list items by index. */
function leaves(value: unknown, path = ''): { path: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, join(path, String(i))));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => leaves(v, join(path, k)));
  return [{ path, value }];
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function withoutSignature(doc: Doc): Doc {
  const { signature: _s, ...rest } = doc;
  return rest;
}

/** A deep copy of `doc` with the leaf at `path` set to `value` (undefined removes it). */
function withLeaf(doc: Doc, path: string, value: unknown): Doc {
  const copy = structuredClone(doc);
  const keys = path.split('.');
  let node: Doc = copy;
  for (const k of keys.slice(0, -1)) node = node[k];
  const last = keys.at(-1)!;
  if (value !== undefined) node[last] = value;
  else if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
  return copy;
}

/**
 * Another value a processor still accepts: a type becomes another defined type (an undefined one would fail safe
 * mode instead), a boolean flips, a URL or a text gains a character.
 */
function changed(path: string, value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value))
    return new Date(Date.parse(value) + 1000).toISOString();
  if (path === 'type' || path.endsWith('.type')) {
    const other: Record<string, string> = {
      Create: 'Update',
      Update: 'Create',
      Note: 'Article',
      Document: 'Image',
      Image: 'Document',
      Hashtag: 'Mention',
      Person: 'Service',
      PropertyValue: 'Hashtag',
    };
    const to = other[String(value)];
    if (!to) throw new Error(`no other type for ${String(value)} at ${path}`);
    return to;
  }
  return `${String(value)}x`;
}
