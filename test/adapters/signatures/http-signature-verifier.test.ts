// The inbox's key handling: when a signer's key is fetched, kept, fetched again, and what happens when its server
// cannot be asked — with a scripted federation client (a map of documents) and a clock the test moves.
import { expect } from 'chai';
import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { SignedRequest } from '../../../src/application/ports/signature-verifier.js';
import type { DocumentFetcher, FetchResult } from '../../../src/application/ports/document-fetcher.js';
import {
  HttpSignatureVerifier,
  KEY_REFRESH_MS,
  REFETCH_INTERVAL_MS,
} from '../../../src/adapters/signatures/http-signature-verifier.js';
import { signedHeaders } from '../../../src/adapters/outbound/http-signing.js';
import { readSignature } from '../../../src/adapters/signatures/http-signature-reading.js';
import { InMemoryRemoteKeyStore } from '../../../src/adapters/persistence/memory/in-memory-remote-key-store.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { publicAddress } from '../../../src/domain/public-address.js';

const ACTOR = 'https://peer.example/users/bob';
const KEY_ID = `${ACTOR}#main-key`;
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const first = pair();
const second = pair();
const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

/** The peer's server as the verifier's client sees it: bob's actor document, or a refusal. */
class ScriptedPeer {
  fetches = 0;
  answer: FetchResult = this.actorWith(first.publicKey);

  actorWith(publicKey: KeyObject): FetchResult {
    return {
      ok: true,
      document: {
        id: ACTOR,
        type: 'Person',
        publicKey: [{ id: KEY_ID, owner: ACTOR, publicKeyPem: pem(publicKey) }],
      },
    };
  }

  asClient(): DocumentFetcher {
    return {
      fetchDocument: async (url: string) => {
        expect(url).to.equal(ACTOR);
        this.fetches++;
        return this.answer;
      },
      forget: () => {},
    } as unknown as DocumentFetcher;
  }
}

describe('HttpSignatureVerifier: the signer’s key', () => {
  let clock: FixedClock;
  let peer: ScriptedPeer;
  let keys: InMemoryRemoteKeyStore;
  let verifier: HttpSignatureVerifier;

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-11-24T10:00:00.000Z'));
    peer = new ScriptedPeer();
    keys = new InMemoryRemoteKeyStore();
    verifier = new HttpSignatureVerifier(peer.asClient(), keys, clock, publicAddress('https://l2.example'));
  });

  let sent = 0;
  /** A Follow (a new one each time) POSTed to the shared inbox now, signed with `privateKey` under bob's key id. */
  async function follow(privateKey: KeyObject = first.privateKey): Promise<SignedRequest> {
    const body = JSON.stringify({
      id: `${ACTOR}#follows/${++sent}`,
      type: 'Follow',
      actor: ACTOR,
      object: 'https://l2.example/users/alice',
    });
    const headers = await signedHeaders({
      method: 'POST',
      url: 'https://l2.example/inbox',
      headers: { 'content-type': 'application/activity+json' },
      body,
      key: { keyId: KEY_ID, privateKey },
      now: clock.now(),
    });
    return { method: 'POST', target: '/inbox', headers, body: Buffer.from(body), clientAddress: '192.0.2.7' };
  }

  const accepted = { ok: true, keyId: KEY_ID, owner: ACTOR };

  it('fetches an unknown key once, keeps it after a signature verified, and uses it as kept for a day', async () => {
    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
    clock.advance(KEY_REFRESH_MS - 1000);
    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
    expect(peer.fetches).to.equal(1);
    expect((await keys.get(KEY_ID))?.publicKeyPem).to.equal(pem(first.publicKey));
  });

  it('fetches a day-old key again and keeps the answer', async () => {
    await verifier.verify(await follow(), ACTOR);
    clock.advance(KEY_REFRESH_MS + 1000);
    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
    expect(peer.fetches).to.equal(2);
    expect((await keys.get(KEY_ID))?.fetchedAt).to.deep.equal(clock.now());
  });

  it('trusts a day-old key that still verifies while its server cannot be asked, without asking again each time', async () => {
    await verifier.verify(await follow(), ACTOR);
    clock.advance(KEY_REFRESH_MS + 1000);
    peer.answer = { ok: false, reason: 'the server answered 503', retryable: true };

    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
    clock.advance(1000);
    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
    expect(peer.fetches, 'one refresh tried within the minute').to.equal(2);

    clock.advance(REFETCH_INTERVAL_MS);
    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
    expect(peer.fetches, 'tried again after a minute').to.equal(3);
  });

  it('fetches a kept key again when a signature fails with it (rotation), at most once a minute', async () => {
    await verifier.verify(await follow(), ACTOR);
    peer.answer = peer.actorWith(second.publicKey);

    expect(await verifier.verify(await follow(second.privateKey), ACTOR)).to.deep.equal(accepted);
    expect(peer.fetches).to.equal(2);
    expect((await keys.get(KEY_ID))?.publicKeyPem).to.equal(pem(second.publicKey));

    // The old key no longer verifies, and is not worth another fetch within the minute of the last one.
    const stale = await verifier.verify(await follow(first.privateKey), ACTOR);
    const again = await verifier.verify(await follow(first.privateKey), ACTOR);
    expect([stale.ok, again.ok]).to.deep.equal([false, false]);
    expect(peer.fetches).to.equal(2);
    clock.advance(REFETCH_INTERVAL_MS + 1000);
    expect((await verifier.verify(await follow(first.privateKey), ACTOR)).ok).to.equal(false);
    expect(peer.fetches, 'asked again a minute later').to.equal(3);
  });

  it('keeps no key whose signature fails, and refuses a key of someone other than the actor', async () => {
    expect((await verifier.verify(await follow(second.privateKey), ACTOR)).ok).to.equal(false);
    expect(await keys.get(KEY_ID)).to.equal(null);

    const verdict = await verifier.verify(await follow(), 'https://peer.example/users/carol');
    expect(verdict).to.deep.equal({
      ok: false,
      kind: 'refused',
      refusal: 'signer',
      reason: 'the request is not signed by the activity’s actor',
    });
  });

  it('refuses a signed request received a second time (a replay) while its Date is valid, and after', async () => {
    const request = await follow();
    expect(await verifier.verify(request, ACTOR)).to.deep.equal(accepted);
    expect(await verifier.verify(request, ACTOR)).to.deep.equal({
      ok: false,
      kind: 'refused',
      refusal: 'replay',
      reason: 'this signed request was received already (a replay)',
    });
    clock.advance(4 * 60_000);
    expect((await verifier.verify(request, ACTOR)).ok).to.equal(false);
    // Another request of the same peer, signed afresh, is welcome.
    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
  });
});

describe('HttpSignatureVerifier: keys it will not use, and fetches it will not make', () => {
  let clock: FixedClock;
  let keys: InMemoryRemoteKeyStore;
  /** What the key's server answers for each fetch, by URL; a pending promise holds the fetch open. */
  let answer: (url: string) => Promise<FetchResult>;
  let fetched: string[];
  let verifier: HttpSignatureVerifier;

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-11-24T10:00:00.000Z'));
    keys = new InMemoryRemoteKeyStore();
    fetched = [];
    const client = {
      fetchDocument: (url: string) => {
        fetched.push(url);
        return answer(url);
      },
      forget: () => {},
    } as unknown as DocumentFetcher;
    verifier = new HttpSignatureVerifier(client, keys, clock, publicAddress('https://l2.example'));
  });

  const actorDocument = (actor: string, publicKeyPem: string): FetchResult => ({
    ok: true,
    document: {
      id: actor,
      type: 'Person',
      publicKey: [{ id: `${actor}#main-key`, owner: actor, publicKeyPem }],
    },
  });

  /** A Follow from `actor`, signed now with `privateKey` under the actor's main key, from `clientAddress`. */
  async function followFrom(
    actor: string,
    options: { privateKey?: KeyObject; clientAddress?: string; algorithm?: 'hs2019' } = {},
  ): Promise<SignedRequest> {
    const body = JSON.stringify({ id: `${actor}#follows/${Math.random()}`, type: 'Follow', actor });
    const privateKey = options.privateKey ?? first.privateKey;
    const headers = await signedHeaders({
      method: 'POST',
      url: 'https://l2.example/inbox',
      headers: { 'content-type': 'application/activity+json' },
      body,
      key: { keyId: `${actor}#main-key`, privateKey },
      now: clock.now(),
    });
    return {
      method: 'POST',
      target: '/inbox',
      headers,
      body: Buffer.from(body),
      clientAddress: options.clientAddress ?? '192.0.2.7',
    };
  }

  it('refuses (as any refusal) when the key’s server gives no answer, and fetches again on the next request', async () => {
    let down = true;
    answer = async (url) =>
      down ? { ok: false, retryable: true, reason: 'timed out' } : actorDocument(url, pem(first.publicKey));

    const verdict = await verifier.verify(await followFrom(ACTOR), ACTOR);
    expect(verdict).to.deep.include({ ok: false, kind: 'refused', refusal: 'key_unreachable' });
    down = false;
    expect(await verifier.verify(await followFrom(ACTOR), ACTOR)).to.deep.include({ ok: true, owner: ACTOR });
    expect(fetched, 'asked again at once: nothing was held against the key').to.have.length(2);
  });

  it('answers "try again later" when this service’s own fetch slots are taken, and fetches on the next request', async () => {
    let busy = true;
    answer = async (url) =>
      busy
        ? { ok: false, retryable: true, busy: true, reason: 'too many fetches' }
        : actorDocument(url, pem(first.publicKey));

    const verdict = await verifier.verify(await followFrom(ACTOR), ACTOR);
    expect(verdict).to.deep.include({ ok: false, kind: 'unavailable', retryAfterSeconds: 30 });
    busy = false;
    expect(await verifier.verify(await followFrom(ACTOR), ACTOR)).to.deep.include({ ok: true, owner: ACTOR });
  });

  it('refuses for a minute a key whose server said it has none, without asking it again', async () => {
    answer = async () => ({ ok: false, retryable: false, reason: 'answered 404' });
    const verdict = await verifier.verify(await followFrom(ACTOR), ACTOR);
    expect(verdict).to.deep.include({ ok: false, kind: 'refused', refusal: 'key_unusable' });
    expect(await verifier.verify(await followFrom(ACTOR), ACTOR)).to.deep.include({
      refusal: 'key_unusable',
    });
    expect(fetched).to.have.length(1);
  });

  it('refuses a key with a huge public exponent at fetch, keeps nothing, and never verifies with one kept before', async () => {
    // A real 2048-bit modulus with a 2000-bit exponent: each verification would cost milliseconds of the event loop.
    const jwk = first.publicKey.export({ format: 'jwk' });
    const huge = createPublicKey({
      key: { ...jwk, e: Buffer.alloc(250, 0xff).toString('base64url') },
      format: 'jwk',
    });
    answer = async (url) => actorDocument(url, pem(huge));
    expect(await verifier.verify(await followFrom(ACTOR), ACTOR)).to.deep.include({
      refusal: 'key_unusable',
    });
    expect(await keys.get(KEY_ID)).to.equal(null);

    // A key stored before the rule: the stored key is not used, a fetch is tried (and refused again).
    await keys.put({ keyId: KEY_ID, owner: ACTOR, publicKeyPem: pem(huge), fetchedAt: clock.now() });
    const carol = 'https://peer.example/users/carol';
    await keys.put({
      keyId: `${carol}#main-key`,
      owner: carol,
      publicKeyPem: pem(huge),
      fetchedAt: clock.now(),
    });
    expect((await verifier.verify(await followFrom(carol), carol)).ok).to.equal(false);
  });

  it('refuses an RSA modulus under 2048 bits, and accepts an Ed25519 key with hs2019', async () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    answer = async (url) => actorDocument(url, pem(small.publicKey));
    const verdict = await verifier.verify(await followFrom(ACTOR, { privateKey: small.privateKey }), ACTOR);
    expect(verdict).to.deep.include({ refusal: 'key_unusable' });

    const ed = generateKeyPairSync('ed25519');
    const dave = 'https://peer.example/users/dave';
    answer = async (url) => actorDocument(url, pem(ed.publicKey));
    // The request as an Ed25519 signer sends it: the same signed string, signed with its key, named hs2019.
    const request = await followFrom(dave);
    const read = readSignature({ ...request, scheme: 'https' }, clock.now());
    if (!read.ok) throw new Error(read.reason);
    const edSignature = sign(null, read.claim.signedData[0]!, ed.privateKey).toString('base64');
    const signature = request.headers
      .signature!.replace('algorithm="rsa-sha256"', 'algorithm="hs2019"')
      .replace(/signature="[^"]+"/, `signature="${edSignature}"`);
    expect(
      await verifier.verify({ ...request, headers: { ...request.headers, signature } }, dave),
    ).to.deep.include({ ok: true, owner: dave });
    // Named rsa-sha256, the same Ed25519 signature is not accepted.
    const misnamed = signature.replace('algorithm="hs2019"', 'algorithm="rsa-sha256"');
    clock.advance(1000);
    expect(
      (await verifier.verify({ ...request, headers: { ...request.headers, signature: misnamed } }, dave)).ok,
    ).to.equal(false);
  });

  it('lets one client have 4 unknown keys fetched at once and 60 a minute; other clients are not held up', async () => {
    const hold: (() => void)[] = [];
    answer = (url) =>
      new Promise((resolve) => hold.push(() => resolve(actorDocument(url, pem(first.publicKey)))));
    const actor = (n: number) => `https://peer${n}.example/users/bob`;
    const pending = [];
    for (let n = 0; n < 4; n++) pending.push(verifier.verify(await followFrom(actor(n)), actor(n)));
    const fifth = await verifier.verify(await followFrom(actor(4)), actor(4));
    expect(fifth).to.deep.include({ ok: false, kind: 'rate_limited' });
    // Another client's request is taken while the first client's four wait.
    const other = verifier.verify(await followFrom(actor(5), { clientAddress: '198.51.100.9' }), actor(5));
    while (hold.length < 5) await new Promise((resolve) => setImmediate(resolve));
    for (const release of hold) release();
    expect((await Promise.all([...pending, other])).every((v) => v.ok)).to.equal(true);

    // The per-minute budget: 60 in all (4 above, 56 here), then "try again" until the minute is over.
    answer = async (url) => actorDocument(url, pem(first.publicKey));
    for (let n = 10; n < 66; n++) await verifier.verify(await followFrom(actor(n)), actor(n));
    const over = await verifier.verify(await followFrom(actor(99)), actor(99));
    expect(over).to.deep.include({ ok: false, kind: 'rate_limited' });
    clock.advance(60_000);
    expect((await verifier.verify(await followFrom(actor(99)), actor(99))).ok).to.equal(true);
  });

  it('forgets the oldest refused key ids first, not all of them at once, when 10,000 more arrive', async () => {
    answer = async () => ({ ok: false, retryable: false, reason: 'answered 404' });
    const actor = (n: number) => `https://peer.example/users/u${n}`;
    for (let n = 0; n <= 10_000; n++)
      await verifier.verify(
        await followFrom(actor(n), { clientAddress: `10.0.${n >> 8}.${n & 255}` }),
        actor(n),
      );
    expect(fetched).to.have.length(10_001);
    // The newest are still remembered: no fetch for them within the minute.
    await verifier.verify(await followFrom(actor(10_000), { clientAddress: '203.0.113.1' }), actor(10_000));
    await verifier.verify(await followFrom(actor(5_000), { clientAddress: '203.0.113.1' }), actor(5_000));
    expect(fetched).to.have.length(10_001);
  });
});
