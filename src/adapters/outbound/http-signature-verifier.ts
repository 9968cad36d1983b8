import type { Clock } from '../../application/ports/clock.js';
import type { RemoteKey, RemoteKeyStore } from '../../application/ports/remote-key-store.js';
import type {
  SignatureVerdict,
  SignatureVerifier,
  SignedRequest,
} from '../../application/ports/signature-verifier.js';
import { httpUrl, sameOrigin } from '../../domain/federation.js';
import type { FetchedDocument, HttpFederationClient } from './http-federation-client.js';
import { readSignature, verifyRsaSha256, type SignatureClaim } from './http-signatures.js';
import { ReplayGuard } from './replay-guard.js';

/** A stored key is fetched again after this long; until then it is used as stored. */
export const KEY_REFRESH_MS = 24 * 60 * 60_000;
/**
 * A key is fetched at most this often after a signature failed with it, and a key that could not be fetched is not
 * asked for again before: a stream of badly signed requests naming some server's key must not turn into a stream
 * of requests to that server.
 */
export const REFETCH_INTERVAL_MS = 60_000;
const MAX_REMEMBERED = 10_000;

/** The `publicKey` entry with this id in a fetched document, if it lists one with a PEM. */
function listedKey(document: FetchedDocument, keyId: string): string | null {
  return (
    document.publicKey.find((key) => key.id === keyId && key.publicKeyPem !== undefined)?.publicKeyPem ?? null
  );
}

const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** A verdict with the signature it accepted, for the replay check. */
type Verdict = { ok: false; reason: string } | { ok: true; keyId: string; owner: string; signature: Buffer };
const accepted = (verdict: { keyId: string; owner: string }): SignatureVerdict => ({
  ok: true,
  keyId: verdict.keyId,
  owner: verdict.owner,
});

/** Whether `keyId` was noted in `times` within the last minute; with `note`, notes now when it was not. */
function lately(times: Map<string, number>, keyId: string, now: number, note: boolean): boolean {
  const last = times.get(keyId);
  if (last !== undefined && now - last < REFETCH_INTERVAL_MS) return true;
  if (note) {
    if (times.size >= MAX_REMEMBERED) times.clear();
    times.set(keyId, now);
  }
  return false;
}

/**
 * Verifies draft-cavage and RFC 9421 signatures with the signer's key: fetched from the key id (an actor document
 * listing it, or a key document whose owner lists it), kept in the store once a signature verified with it, used as
 * kept for a day, and fetched again once when a signature fails with it (the key may have been rotated).
 */
export class HttpSignatureVerifier implements SignatureVerifier {
  /** When a kept key was last fetched again because a signature failed with it (epoch ms). */
  private readonly refetched = new Map<string, number>();
  /** When a key last could not be fetched. */
  private readonly unfetchable = new Map<string, number>();
  private readonly replays = new ReplayGuard();
  private readonly host: string;

  constructor(
    private readonly client: HttpFederationClient,
    private readonly keys: RemoteKeyStore,
    private readonly clock: Clock,
    /** PUBLIC_URL: a signature must be made for this service's host, not replayed from another server. */
    publicUrl: string,
  ) {
    this.host = new URL(publicUrl).host;
    this.scheme = new URL(publicUrl).protocol === 'https:' ? 'https' : 'http';
  }

  private readonly scheme: 'http' | 'https';

  async verify(request: SignedRequest, actor: string): Promise<SignatureVerdict> {
    const verdict = await this.verifySignature(request, actor);
    if (!verdict.ok) return verdict;
    // Checked once the signature verified, so that unsigned noise cannot fill the memory.
    if (!this.replays.firstUse(verdict.signature, this.clock.now().getTime()))
      return refuse('this signed request was received already (a replay)');
    return accepted(verdict);
  }

  private async verifySignature(request: SignedRequest, actor: string): Promise<Verdict> {
    const now = this.clock.now();
    if (request.headers.host?.toLowerCase() !== this.host)
      return refuse(`the request is not addressed to ${this.host} (Host)`);
    const read = readSignature({ ...request, scheme: this.scheme }, now);
    if (!read.ok) return read;
    const { claim } = read;
    if (httpUrl(claim.keyId) === null) return refuse('keyId is not an http(s) URL');
    if (!sameOrigin(claim.keyId, actor)) return refuse('the key is not on the actor’s server');

    const stored = await this.keys.get(claim.keyId);
    const storedVerifies = stored !== null && verifyRsaSha256(claim, stored.publicKeyPem);
    if (storedVerifies) {
      const fresh = now.getTime() - stored.fetchedAt.getTime() < KEY_REFRESH_MS;
      // A day-old key is fetched again, unless its server could not be asked a moment ago: then the key as stored
      // is still the best evidence.
      if (fresh || lately(this.unfetchable, claim.keyId, now.getTime(), false))
        return this.signedBy(stored, actor, claim);
      const refreshed = await this.fetchKey(claim.keyId, true);
      if (typeof refreshed !== 'string') return this.keep(claim, refreshed, actor);
      lately(this.unfetchable, claim.keyId, now.getTime(), true);
      return this.signedBy(stored, actor, claim);
    }
    // A kept key that fails is fetched again at most once a minute; an unknown key that could not be fetched is
    // not asked for again within a minute (and one that could is answered by the client's cache meanwhile).
    if (stored && lately(this.refetched, claim.keyId, now.getTime(), true))
      return refuse('the signature does not verify with the signer’s key');
    if (!stored && lately(this.unfetchable, claim.keyId, now.getTime(), false))
      return refuse('the signing key could not be fetched a moment ago');

    const fetched = await this.fetchKey(claim.keyId, stored !== null);
    if (typeof fetched === 'string') {
      lately(this.unfetchable, claim.keyId, now.getTime(), true);
      return refuse(`the signing key could not be fetched: ${fetched}`);
    }
    return this.keep(claim, fetched, actor);
  }

  /** The verdict of a fetched key; the key is stored only when the signature verifies and its owner is the actor. */
  private async keep(claim: SignatureClaim, key: RemoteKey, actor: string): Promise<Verdict> {
    if (!verifyRsaSha256(claim, key.publicKeyPem))
      return refuse('the signature does not verify with the signer’s key');
    const verdict = this.signedBy(key, actor, claim);
    if (verdict.ok) await this.keys.put(key);
    return verdict;
  }

  private signedBy(key: RemoteKey, actor: string, claim: SignatureClaim): Verdict {
    if (key.owner !== actor) return refuse('the request is not signed by the activity’s actor');
    return { ok: true, keyId: key.keyId, owner: key.owner, signature: claim.signature };
  }

  /** The key and its owner, or why not. `again`: a kept key failed, so the server is asked, not the cache. */
  private async fetchKey(keyId: string, again: boolean): Promise<RemoteKey | string> {
    const url = keyId.split('#')[0]!;
    if (again) this.client.forget(url);
    const fetched = await this.client.fetchDocument(url);
    if (!fetched.ok) return fetched.reason;
    const { document } = fetched;
    const fetchedAt = this.clock.now();

    const listed = listedKey(document, keyId);
    if (listed !== null && document.id === url) return { keyId, owner: url, publicKeyPem: listed, fetchedAt };

    // A key document of its own (with `owner`), or an actor stub served at the key's URL (GoToSocial's
    // …/main-key): the owner's own document must list the key too.
    const owner = listed !== null ? httpUrl(document.id) : httpUrl(document.owner);
    const publicKeyPem = listed ?? (document.id === keyId ? (document.publicKeyPem ?? null) : null);
    if (owner === null || publicKeyPem === null) return 'the key id names no public key';
    const ownerDocument = await this.client.fetchDocument(owner);
    if (!ownerDocument.ok) return `the key's owner: ${ownerDocument.reason}`;
    if (ownerDocument.document.id !== owner || listedKey(ownerDocument.document, keyId) !== publicKeyPem)
      return 'the key’s owner does not list the key';
    return { keyId, owner, publicKeyPem, fetchedAt };
  }
}
