import { LRUCache } from 'lru-cache';
import type { Clock } from '../../application/ports/clock.js';
import type { RemoteKey, RemoteKeyStore } from '../../application/ports/remote-key-store.js';
import type {
  SignatureRefusal,
  SignatureRefused,
  SignatureRetryLater,
  SignatureVerdict,
  SignatureVerifier,
  SignedRequest,
} from '../../application/ports/signature-verifier.js';
import { httpUrl, sameOrigin } from '../../domain/federation.js';
import type {
  DocumentFetcher,
  FetchedDocument,
  FetchFailure,
} from '../../application/ports/document-fetcher.js';
import { readSignature, verifyClaim, type SignatureClaim } from './http-signature-reading.js';
import type { PublicAddress } from '../../domain/public-address.js';
import { KeyFetchBudget } from './key-fetch-budget.js';
import { keyIdOf } from './signature-key-id.js';
import { PeerPublicKeys } from './peer-public-keys.js';
import { ReplayGuard } from './replay-guard.js';

/** A stored key is fetched again after this long; until then it is used as stored. */
export const KEY_REFRESH_MS = 24 * 60 * 60_000;
/**
 * A key is fetched at most this often after a signature failed with it, and a key whose server answered that it
 * has none is not asked for again before: a stream of badly signed requests naming some server's key must not turn
 * into a stream of requests to that server. (A fetch that failed for want of an answer is not remembered: the next
 * request may try again, within the fetch budgets.)
 */
export const REFETCH_INTERVAL_MS = 60_000;
/** What a peer is told to wait when its key could not be fetched now. */
export const KEY_RETRY_AFTER_SECONDS = 30;
/** Keys remembered by each of the minute-long memories; past it the least recently used are forgotten first. */
const MAX_REMEMBERED = 10_000;

/** The `publicKey` entry with this id in a fetched document, if it lists one with a PEM. */
function listedKey(document: FetchedDocument, keyId: string): string | null {
  return (
    document.publicKey.find((key) => key.id === keyId && key.publicKeyPem !== undefined)?.publicKeyPem ?? null
  );
}

const refuse = (refusal: SignatureRefusal, reason: string): SignatureRefused => ({
  ok: false,
  kind: 'refused',
  refusal,
  reason,
});
const unavailable = (reason: string): SignatureRetryLater => ({
  ok: false,
  kind: 'unavailable',
  reason,
  retryAfterSeconds: KEY_RETRY_AFTER_SECONDS,
});

/** A verdict with the signature it accepted, for the replay check. */
type Verdict =
  SignatureRefused | SignatureRetryLater | { ok: true; keyId: string; owner: string; signature: Buffer };

/** A key fetched and confirmed, or why not. */
type KeyLookup = { ok: true; key: RemoteKey } | FetchFailure;

/** Key ids remembered for a minute of `clock`'s time. */
const minuteMemory = (clock: Clock) =>
  new LRUCache<string, true>({
    max: MAX_REMEMBERED,
    ttl: REFETCH_INTERVAL_MS,
    perf: { now: () => clock.now().getTime() },
    // Read the clock on every check: its time may jump (a test's clock), and a cached reading would lag it.
    ttlResolution: 0,
  });

/**
 * Verifies draft-cavage and RFC 9421 signatures with the signer's key: fetched from the key id (an actor document
 * listing it, or a key document whose owner lists it), kept in the store once a signature verified with it, used as
 * kept for a day, and fetched again once when a signature fails with it (the key may have been rotated). Unknown
 * keys are fetched within budgets (per client address here, per destination address in the client), and an origin
 * that verified before keeps a share of the fetch slots, so a flood of invented key ids cannot lock honest peers out.
 */
export class HttpSignatureVerifier implements SignatureVerifier {
  /** Key ids fetched again lately because a signature failed with the kept key. */
  private readonly refetched: LRUCache<string, true>;
  /** Key ids whose server answered lately that it has no such key (a permanent failure). */
  private readonly unfetchable: LRUCache<string, true>;
  /** Kept keys whose day-old refresh failed lately: the key as kept is used meanwhile. */
  private readonly refreshFailed: LRUCache<string, true>;
  /** Origins a signature verified from: their fetches may use the reserved slots. */
  private readonly verifiedOrigins = new LRUCache<string, true>({ max: MAX_REMEMBERED });
  private readonly replays: ReplayGuard;
  private readonly publicKeys = new PeerPublicKeys();
  private readonly host: string;
  private readonly scheme: 'http' | 'https';

  constructor(
    private readonly client: DocumentFetcher,
    private readonly keys: RemoteKeyStore,
    private readonly clock: Clock,
    /** PUBLIC_URL: a signature must be made for this service's host, not replayed from another server. */
    publicUrl: PublicAddress,
    private readonly budget = new KeyFetchBudget(clock),
  ) {
    this.host = publicUrl.host;
    this.scheme = publicUrl.secure ? 'https' : 'http';
    this.refetched = minuteMemory(clock);
    this.unfetchable = minuteMemory(clock);
    this.refreshFailed = minuteMemory(clock);
    this.replays = new ReplayGuard(clock);
  }

  keyIdOf(request: SignedRequest): string | null {
    return keyIdOf(request);
  }

  async verify(request: SignedRequest, actor: string): Promise<SignatureVerdict> {
    const verdict = await this.verifySignature(request, actor);
    if (!verdict.ok) return verdict;
    // Checked once the signature verified, so that unsigned noise cannot fill the memory.
    if (!this.replays.firstUse(verdict.signature))
      return refuse('replay', 'this signed request was received already (a replay)');
    this.verifiedOrigins.set(new URL(verdict.keyId).origin, true);
    return { ok: true, keyId: verdict.keyId, owner: verdict.owner };
  }

  private async verifySignature(request: SignedRequest, actor: string): Promise<Verdict> {
    const now = this.clock.now();
    if (request.headers.host?.toLowerCase() !== this.host)
      return refuse('host', `the request is not addressed to ${this.host} (Host)`);
    const read = readSignature({ ...request, scheme: this.scheme }, now);
    if (!read.ok) return refuse(read.refusal, read.reason);
    const { claim } = read;
    if (httpUrl(claim.keyId) === null) return refuse('malformed', 'keyId is not an http(s) URL');
    if (!sameOrigin(claim.keyId, actor)) return refuse('key_origin', 'the key is not on the actor’s server');

    const stored = await this.keys.get(claim.keyId);
    if (stored !== null && this.verifies(claim, stored)) {
      const fresh = now.getTime() - stored.fetchedAt.getTime() < KEY_REFRESH_MS;
      // A day-old key is fetched again, unless that failed a moment ago: then the key as stored is still the best
      // evidence.
      if (fresh || this.refreshFailed.has(claim.keyId)) return this.signedBy(stored, actor, claim);
      const refreshed = await this.lookUp(claim.keyId, true);
      if (refreshed.ok) return this.keep(claim, refreshed.key, actor);
      this.refreshFailed.set(claim.keyId, true);
      return this.signedBy(stored, actor, claim);
    }
    // A kept key that fails is fetched again at most once a minute; an unknown key whose server said it has none is
    // not asked for again within a minute.
    if (stored !== null) {
      if (this.refetched.has(claim.keyId))
        return refuse('signature', 'the signature does not verify with the signer’s key');
      this.refetched.set(claim.keyId, true);
    } else if (this.unfetchable.has(claim.keyId))
      return refuse('key_unusable', 'the signing key could not be fetched a moment ago');

    // An unknown key is fetched on the client's budget: each request naming one costs a fetch from its server.
    const charge = stored === null ? this.budget.take(request.clientAddress) : null;
    if (charge !== null && !charge.ok)
      return {
        ok: false,
        kind: 'rate_limited',
        reason: 'this client asked for too many unknown keys',
        retryAfterSeconds: charge.retryAfterSeconds,
      };
    let fetched: KeyLookup;
    try {
      fetched = await this.lookUp(claim.keyId, stored !== null);
    } finally {
      charge?.release();
    }
    if (!fetched.ok) {
      if (fetched.busy) return unavailable(`the signing key could not be fetched now: ${fetched.reason}`);
      // Whatever the key's server did — refused the connection, timed out, answered 404 or 500 — the client is told
      // the same 401: a closed port answered otherwise than an open one would make the inbox a port scanner.
      if (fetched.retryable)
        return refuse('key_unreachable', `the signing key could not be fetched now: ${fetched.reason}`);
      this.unfetchable.set(claim.keyId, true);
      return refuse('key_unusable', `the signing key could not be fetched: ${fetched.reason}`);
    }
    return this.keep(claim, fetched.key, actor);
  }

  /** Whether the claim verifies with `key`; a key outside the accepted kinds and sizes never does. */
  private verifies(claim: SignatureClaim, key: RemoteKey): boolean {
    const parsed = this.publicKeys.parse(key.publicKeyPem);
    return parsed.ok && verifyClaim(claim, parsed.key);
  }

  /** The verdict of a fetched key; the key is stored only when the signature verifies and its owner is the actor. */
  private async keep(claim: SignatureClaim, key: RemoteKey, actor: string): Promise<Verdict> {
    if (!this.verifies(claim, key))
      return refuse('signature', 'the signature does not verify with the signer’s key');
    const verdict = this.signedBy(key, actor, claim);
    if (verdict.ok) await this.keys.put(key);
    return verdict;
  }

  private signedBy(key: RemoteKey, actor: string, claim: SignatureClaim): Verdict {
    if (key.owner !== actor) return refuse('signer', 'the request is not signed by the activity’s actor');
    return { ok: true, keyId: key.keyId, owner: key.owner, signature: claim.signature };
  }

  /** The key and its owner, or why not. `again`: a kept key failed, so the server is asked, not the cache. */
  private async lookUp(keyId: string, again: boolean): Promise<KeyLookup> {
    const url = keyId.split('#')[0]!;
    if (again) this.client.forget(url);
    const known = this.verifiedOrigins.has(new URL(url).origin);
    const fetched = await this.client.fetchDocument(url, { known });
    if (!fetched.ok) return fetched;
    const { document } = fetched;
    const fetchedAt = this.clock.now();
    const permanently = (reason: string): FetchFailure => ({ ok: false, retryable: false, reason });

    const listed = listedKey(document, keyId);
    const found = (owner: string, publicKeyPem: string): KeyLookup => {
      // Judged once, here: a key outside the accepted kinds and sizes is never kept, nor verified with.
      const parsed = this.publicKeys.parse(publicKeyPem);
      if (!parsed.ok) return permanently(parsed.reason);
      return { ok: true, key: { keyId, owner, publicKeyPem, fetchedAt } };
    };
    if (listed !== null && document.id === url) return found(url, listed);

    // A key document of its own (with `owner`), or an actor stub served at the key's URL (GoToSocial's
    // …/main-key): the owner's own document must list the key too.
    const owner = listed !== null ? httpUrl(document.id) : httpUrl(document.owner);
    const publicKeyPem = listed ?? (document.id === keyId ? (document.publicKeyPem ?? null) : null);
    if (owner === null || publicKeyPem === null) return permanently('the key id names no public key');
    const ownerDocument = await this.client.fetchDocument(owner, { known });
    if (!ownerDocument.ok) return { ...ownerDocument, reason: `the key's owner: ${ownerDocument.reason}` };
    if (ownerDocument.document.id !== owner || listedKey(ownerDocument.document, keyId) !== publicKeyPem)
      return permanently('the key’s owner does not list the key');
    return found(owner, publicKeyPem);
  }
}
