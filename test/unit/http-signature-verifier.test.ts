// The inbox's key handling: when a signer's key is fetched, kept, fetched again, and what happens when its server
// cannot be asked — with a scripted federation client (a map of documents) and a clock the test moves.
import { expect } from 'chai';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { SignedRequest } from '../../src/application/ports/signature-verifier.js';
import type {
  FetchResult,
  HttpFederationClient,
} from '../../src/adapters/outbound/http-federation-client.js';
import {
  HttpSignatureVerifier,
  KEY_REFRESH_MS,
  REFETCH_INTERVAL_MS,
} from '../../src/adapters/outbound/http-signature-verifier.js';
import { signedHeaders } from '../../src/adapters/outbound/http-signatures.js';
import { InMemoryRemoteKeyStore } from '../../src/adapters/persistence/memory/in-memory-remote-key-store.js';
import { FixedClock } from '../support/fixed-clock.js';

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

  asClient(): HttpFederationClient {
    return {
      fetchDocument: async (url: string) => {
        expect(url).to.equal(ACTOR);
        this.fetches++;
        return this.answer;
      },
      forget: () => {},
    } as unknown as HttpFederationClient;
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
    verifier = new HttpSignatureVerifier(peer.asClient(), keys, clock, 'https://l2.example');
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
    return { method: 'POST', target: '/inbox', headers, body: Buffer.from(body) };
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
    clock.advance(REFETCH_INTERVAL_MS);
    expect((await verifier.verify(await follow(first.privateKey), ACTOR)).ok).to.equal(false);
    expect(peer.fetches, 'asked again a minute later').to.equal(3);
  });

  it('keeps no key whose signature fails, and refuses a key of someone other than the actor', async () => {
    expect((await verifier.verify(await follow(second.privateKey), ACTOR)).ok).to.equal(false);
    expect(await keys.get(KEY_ID)).to.equal(null);

    const verdict = await verifier.verify(await follow(), 'https://peer.example/users/carol');
    expect(verdict).to.deep.equal({ ok: false, reason: 'the request is not signed by the activity’s actor' });
  });

  it('refuses a signed request received a second time (a replay) while its Date is valid, and after', async () => {
    const request = await follow();
    expect(await verifier.verify(request, ACTOR)).to.deep.equal(accepted);
    expect(await verifier.verify(request, ACTOR)).to.deep.equal({
      ok: false,
      reason: 'this signed request was received already (a replay)',
    });
    clock.advance(4 * 60_000);
    expect((await verifier.verify(request, ACTOR)).ok).to.equal(false);
    // Another request of the same peer, signed afresh, is welcome.
    expect(await verifier.verify(await follow(), ACTOR)).to.deep.equal(accepted);
  });
});
