import { expect } from 'chai';
import { createHash, generateKeyPairSync } from 'node:crypto';
import jsonld from 'jsonld';
import type { JsonLdDocument as JsonLdInput, Options } from 'jsonld';
import {
  bundledDocumentLoader,
  UnbundledContextError,
} from '../../src/adapters/crypto/ld-signature/bundled-document-loader.js';
import {
  JsonLdActivitySigner,
  optionsSha256,
  UnsignableDocumentError,
} from '../../src/adapters/crypto/ld-signature/json-ld-activity-signer.js';
import { verifyRsaSignature2017 } from '../../src/adapters/crypto/ld-signature/verify-rsa-signature-2017.js';
import type { JsonLdDocument, SigningKey } from '../../src/application/ports/activity-signer.js';
import { verifyLdSignature } from '../support/independent-ld-verifier.js';

const BASE = 'https://l2.example';
const ACTOR = `${BASE}/users/alice`;
const CREATED = new Date('2026-03-04T05:06:07.089Z');
const CONTEXT = [
  'https://www.w3.org/ns/activitystreams',
  'https://w3id.org/security/v1',
  { Hashtag: 'as:Hashtag' },
];

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The Create of API.md §4, unsigned. */
function createActivity(): Doc {
  return {
    '@context': CONTEXT,
    id: `${BASE}/activities/7`,
    type: 'Create',
    actor: ACTOR,
    published: '2026-03-04T05:06:07.000Z',
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    cc: [`${ACTOR}/followers`],
    object: {
      id: `${BASE}/assets/sunset`,
      type: 'Document',
      name: 'sunset',
      attributedTo: ACTOR,
      mediaType: 'image/png',
      url: `${BASE}/files/sunset.png`,
      content: 'A &lt;red&gt; sunset over the bay, caf\u00e9 \u{1F305}',
      published: '2026-03-04T05:06:07.000Z',
      tag: [
        { type: 'Hashtag', name: '#art' },
        { type: 'Hashtag', name: '#sky' },
      ],
    },
  };
}

function deleteActivity(formerType: string): Doc {
  return {
    '@context': CONTEXT,
    id: `${BASE}/activities/9`,
    type: 'Delete',
    actor: ACTOR,
    published: '2026-03-05T00:00:00.000Z',
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    cc: [`${ACTOR}/followers`],
    object: {
      id: `${BASE}/assets/sunset`,
      type: 'Tombstone',
      formerType,
      deleted: '2026-03-05T00:00:00.000Z',
    },
  };
}

/** The same JSON with every object's keys in reverse order, pretty-printed and parsed back. */
function reordered(value: unknown): unknown {
  const reverse = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(reverse)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.entries(v)
              .reverse()
              .map(([k, x]) => [k, reverse(x)]),
          )
        : v;
  return JSON.parse(JSON.stringify(reverse(value), null, 4));
}

/** Replaces the last character of a string (changing exactly one character). */
const oneCharOff = (s: string): string => s.slice(0, -1) + (s.endsWith('x') ? 'y' : 'x');

describe('Linked Data Signatures (RsaSignature2017)', () => {
  const signer = new JsonLdActivitySigner();
  let key: SigningKey;
  let publicKeyPem: string;
  let otherPublicKeyPem: string;
  let otherKey: SigningKey;
  let realFetch: typeof globalThis.fetch;
  const fetched: string[] = [];

  const sign = (doc: Doc, k: SigningKey = key): Promise<Doc> =>
    signer.sign(doc as JsonLdDocument, k, CREATED);
  const bothVerify = async (doc: Doc, pem = publicKeyPem): Promise<[boolean, boolean]> => [
    await verifyLdSignature(doc, pem),
    await verifyRsaSignature2017(doc, pem),
  ];

  before(() => {
    const pair = () =>
      generateKeyPairSync('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
    const mine = pair();
    const theirs = pair();
    key = { privateKeyPem: mine.privateKey, keyId: `${ACTOR}#main-key` };
    publicKeyPem = mine.publicKey;
    otherKey = { privateKeyPem: theirs.privateKey, keyId: `${ACTOR}#main-key` };
    otherPublicKeyPem = theirs.publicKey;
    // Any fetch during these tests is recorded (and fails): signing and verifying must stay offline.
    realFetch = globalThis.fetch;
    globalThis.fetch = async (input) => {
      fetched.push(String(input instanceof Request ? input.url : input));
      throw new Error('network access during an LD-signature test');
    };
  });

  after(() => {
    globalThis.fetch = realFetch;
    expect(fetched).to.deep.equal([]);
  });

  it('signs the API.md §4 Create so that both verifiers accept it', async () => {
    const signed = await sign(createActivity());
    expect(await bothVerify(signed)).to.deep.equal([true, true]);
  });

  it('adds exactly type/creator/created/signatureValue, with the given time, and keeps the rest as it was', async () => {
    const unsigned = createActivity();
    const original = structuredClone(unsigned);
    const signed = await sign(unsigned);
    expect(unsigned).to.deep.equal(original); // the input is not modified
    expect(Object.keys(signed.signature).sort()).to.deep.equal([
      'created',
      'creator',
      'signatureValue',
      'type',
    ]);
    expect(signed.signature).to.include({
      type: 'RsaSignature2017',
      creator: `${ACTOR}#main-key`,
      created: '2026-03-04T05:06:07.089Z',
    });
    expect(signed.signature.signatureValue).to.match(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(signed.signature.signatureValue, 'base64')).to.have.length(256); // RSA-2048
    const { signature: _signature, ...rest } = signed;
    expect(rest).to.deep.equal(original);
  });

  it('hashes the options as Mastodon does: creator and created under identity/v1 (known answer)', async () => {
    const expected =
      '_:c14n0 <http://purl.org/dc/terms/created> "2026-03-04T05:06:07.089Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .\n' +
      `_:c14n0 <http://purl.org/dc/terms/creator> <${ACTOR}#main-key> .\n`;
    const options = {
      type: 'RsaSignature2017',
      creator: `${ACTOR}#main-key`,
      created: CREATED.toISOString(),
    };
    expect(await optionsSha256(options, bundledDocumentLoader)).to.equal(
      createHash('sha256').update(expected).digest('hex'),
    );
  });

  it('replaces an existing signature instead of signing it', async () => {
    const once = await sign(createActivity());
    const twice = await signer.sign(once, key, new Date('2027-01-01T00:00:00.000Z'));
    expect(twice.signature).to.include({ created: '2027-01-01T00:00:00.000Z' });
    expect(await bothVerify(twice)).to.deep.equal([true, true]);
  });

  const tamperings: [string, (d: Doc) => void][] = [
    ['object.name', (d) => (d.object.name = oneCharOff(d.object.name))],
    ['object.content', (d) => (d.object.content = d.object.content.replace('red', 'rad'))],
    ['published', (d) => (d.published = d.published.replace('07.000Z', '08.000Z'))],
    ['actor', (d) => (d.actor = oneCharOff(d.actor))],
    ['a tag name', (d) => (d.object.tag[1].name = oneCharOff(d.object.tag[1].name))],
  ];
  for (const [what, tamper] of tamperings) {
    it(`fails verification when one character of ${what} changes`, async () => {
      const signed = await sign(createActivity());
      const tampered = structuredClone(signed);
      tamper(tampered);
      expect(JSON.stringify(tampered)).to.not.equal(JSON.stringify(signed));
      expect(await bothVerify(tampered)).to.deep.equal([false, false]);
    });
  }

  it('still verifies after the keys are reordered and the JSON pretty-printed', async () => {
    const signed = await sign(createActivity());
    const shuffled = reordered(signed) as Doc;
    expect(Object.keys(shuffled)[0]).to.equal('signature');
    expect(await bothVerify(shuffled)).to.deep.equal([true, true]);
  });

  it('refuses to sign a term the @context does not define (safe mode), and signs it once defined', async () => {
    const undefinedTerm = { ...createActivity(), sha256: 'e3b0c44298fc1c149afbf4c8996fb924' };
    await expectRejection(sign(undefinedTerm), UnsignableDocumentError, /blank node predicate.*sha256/);

    const defined = {
      ...undefinedTerm,
      '@context': [...CONTEXT, { sha256: 'https://l2.example/ns#sha256' }],
    };
    const signed = await sign(defined);
    expect(await bothVerify(signed)).to.deep.equal([true, true]);
    expect(await bothVerify({ ...signed, sha256: oneCharOff(signed.sha256) })).to.deep.equal([false, false]);
  });

  it('refuses to sign a custom type name, which jsonld would silently leave unsigned', async () => {
    // jsonld does NOT reject this by itself: the ActivityStreams context has "@vocab": "_:", so "Asset" expands
    // to the blank node _:Asset, and a blank node is a legal rdf:type object, so safe mode has nothing to flag.
    // Canonicalisation then relabels every blank node (_:c14n0, ...), so "Asset" and "Thing" give the same
    // N-Quads and the same hash: the type would not be signed. The signer therefore rejects any rdf:type that
    // canonicalises to a blank node.
    const asAsset = createActivity();
    asAsset.object.type = 'Asset';
    const asThing = createActivity();
    asThing.object.type = 'Thing';
    const canonize = (d: Doc) =>
      jsonld.canonize(
        d as JsonLdInput,
        {
          format: 'application/n-quads',
          documentLoader: bundledDocumentLoader,
          safe: true,
        } as unknown as Options.Normalize,
      );
    expect(await canonize(asAsset)).to.equal(await canonize(asThing));

    await expectRejection(sign(asAsset), UnsignableDocumentError, /"type" is not defined/);
    // Likewise a tag type without the inline { Hashtag: 'as:Hashtag' } definition.
    await expectRejection(
      sign({ ...createActivity(), '@context': CONTEXT.slice(0, 2) }),
      UnsignableDocumentError,
    );
  });

  it('signs and verifies an Update, and a Delete carrying a Tombstone with formerType and deleted', async () => {
    const update: Doc = { ...createActivity(), id: `${BASE}/activities/8`, type: 'Update' };
    update.object.updated = '2026-03-04T06:00:00.000Z';
    const del = deleteActivity('https://www.w3.org/ns/activitystreams#Document');
    for (const doc of [update, del, deleteActivity('as:Image')]) {
      const signed = await sign(doc);
      expect(await bothVerify(signed)).to.deep.equal([true, true]);
    }
    const signedDelete = await sign(del);
    const tampered = structuredClone(signedDelete);
    tampered.object.deleted = '2026-03-06T00:00:00.000Z';
    expect(await bothVerify(tampered)).to.deep.equal([false, false]);
  });

  it('refuses a bare formerType ("Document"): "@type": "@id" makes it a relative IRI, which would go unsigned', async () => {
    await expectRejection(
      sign(deleteActivity('Document')),
      UnsignableDocumentError,
      /relative object reference/,
    );
  });

  it('never touches the network: the loader refuses unknown URLs, and so does signing', async () => {
    await expectRejection(bundledDocumentLoader('https://example.com/other-context'), UnbundledContextError);
    for (const url of ['https://www.w3.org/ns/activitystreams', 'http://www.w3.org/ns/activitystreams#']) {
      expect((await bundledDocumentLoader(url)).document).to.have.property('@context');
    }
    await expectRejection(
      bundledDocumentLoader('https://www.w3.org/ns/activitystreams/'),
      UnbundledContextError,
    );

    const fourth = { ...createActivity(), '@context': [...CONTEXT, 'https://example.com/other-context'] };
    await expectRejection(sign(fourth), UnbundledContextError, /example\.com\/other-context/);
    // verifying such a document cannot say anything either: it throws rather than answering false
    const signed = await sign(createActivity());
    await expectRejection(
      verifyRsaSignature2017({ ...signed, '@context': fourth['@context'] }, publicKeyPem),
    );
  });

  it('does not verify a signature made with another key', async () => {
    const signed = await sign(createActivity(), otherKey);
    expect(await bothVerify(signed)).to.deep.equal([false, false]);
    expect(await bothVerify(signed, otherPublicKeyPem)).to.deep.equal([true, true]);
  });

  it('does not verify once signature.type is changed to RsaSignature2018', async () => {
    const signed = await sign(createActivity());
    expect(
      await bothVerify({ ...signed, signature: { ...signed.signature, type: 'RsaSignature2018' } }),
    ).to.deep.equal([false, false]);
  });

  it('answers false, without throwing, for a missing or malformed signature or key', async () => {
    const signed = await sign(createActivity());
    const { signature, ...unsigned } = signed;
    const cases: Doc[] = [
      unsigned,
      { ...unsigned, signature: 'abc' },
      { ...unsigned, signature: [signature] },
      { ...unsigned, signature: { ...signature, creator: undefined } },
      { ...unsigned, signature: { ...signature, created: 42 } },
      { ...unsigned, signature: { ...signature, signatureValue: '%%%' } },
      { ...unsigned, signature: { ...signature, created: '2026-03-04T05:06:08.089Z' } },
      { ...unsigned, signature: { ...signature, nonce: 'added later' } },
      { ...signed, sha256: 'an undefined term added later' },
    ];
    for (const doc of cases) expect(await verifyRsaSignature2017(doc, publicKeyPem)).to.equal(false);
    expect(await verifyRsaSignature2017(signed, 'not a PEM')).to.equal(false);
  });

  it('the independent verifier also requires creator == <actor>#main-key', async () => {
    const signed = await sign(createActivity(), { ...key, keyId: `${BASE}/users/bob#main-key` });
    expect(await verifyRsaSignature2017(signed, publicKeyPem)).to.equal(true); // the signature itself is fine
    expect(await verifyLdSignature(signed, publicKeyPem)).to.equal(false);
  });

  it('times the signing of 20 activities', async () => {
    await sign(createActivity()); // warm-up
    const started = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) {
      const doc = createActivity();
      doc.id = `${BASE}/activities/${100 + i}`;
      doc.object.name = `asset-${i}`;
      await sign(doc);
    }
    const meanMs = Number(process.hrtime.bigint() - started) / 1e6 / 20;
    console.log(`      mean RsaSignature2017 signing time: ${meanMs.toFixed(2)} ms per activity`);
  });
});

async function expectRejection(
  promise: Promise<unknown>,
  type: new (...args: never[]) => Error = Error,
  message?: RegExp,
): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a rejection').to.be.instanceOf(type);
  if (message) expect((caught as Error).message).to.match(message);
}
