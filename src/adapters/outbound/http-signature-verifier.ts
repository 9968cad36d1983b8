import type { Clock } from '../../application/ports/clock.js';
import type { RemoteKey, RemoteKeyStore } from '../../application/ports/remote-key-store.js';
import type {
  SignatureVerdict,
  SignatureVerifier,
  SignedRequest,
} from '../../application/ports/signature-verifier.js';
import { httpUrl } from '../../domain/federation.js';
import type { HttpFederationClient } from './http-federation-client.js';
import { readSignature, verifyRsaSha256 } from './http-signatures.js';

/** A stored key is fetched again after this long; until then it is used as stored. */
export const KEY_REFRESH_MS = 24 * 60 * 60_000;
/**
 * A key that fails to verify is fetched again at most this often: a stream of badly signed requests naming some
 * server's key must not turn into a stream of requests to that server.
 */
export const REFETCH_INTERVAL_MS = 60_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

/** The `publicKey` entry with this id in an actor document, if it lists one with a PEM. */
function listedKey(actor: Record<string, unknown>, keyId: string): string | null {
  for (const key of asArray(actor.publicKey)) {
    if (isRecord(key) && key.id === keyId && typeof key.publicKeyPem === 'string') return key.publicKeyPem;
  }
  return null;
}

/**
 * Verifies draft-cavage and RFC 9421 signatures with the signer's key: fetched from the key id (an actor document
 * listing it, or a key document whose owner lists it), kept in the store, used as kept for a day, and fetched
 * again once when a signature fails to verify with it (the key may have been rotated).
 */
export class HttpSignatureVerifier implements SignatureVerifier {
  /** When each key was last fetched again because a signature failed with it (epoch ms). */
  private readonly refetched = new Map<string, number>();

  constructor(
    private readonly client: HttpFederationClient,
    private readonly keys: RemoteKeyStore,
    private readonly clock: Clock,
    private readonly scheme: 'http' | 'https',
  ) {}

  async verify(request: SignedRequest): Promise<SignatureVerdict> {
    const now = this.clock.now();
    const read = readSignature({ ...request, scheme: this.scheme }, now);
    if (!read.ok) return read;
    const { claim } = read;
    if (httpUrl(claim.keyId) === null) return { ok: false, reason: 'keyId is not an http(s) URL' };

    const stored = await this.keys.get(claim.keyId);
    const fresh = stored !== null && now.getTime() - stored.fetchedAt.getTime() < KEY_REFRESH_MS;
    if (fresh && verifyRsaSha256(claim, stored.publicKeyPem)) return this.signedBy(stored);
    if (fresh && !this.mayRefetch(claim.keyId, now.getTime()))
      return { ok: false, reason: 'the signature does not verify with the signer’s key' };

    const fetched = await this.fetchKey(claim.keyId);
    if (typeof fetched === 'string') {
      // The signer's server cannot be asked now: the key as stored is still the best evidence.
      if (stored && !fresh && verifyRsaSha256(claim, stored.publicKeyPem)) return this.signedBy(stored);
      return { ok: false, reason: `the signing key could not be fetched: ${fetched}` };
    }
    await this.keys.put(fetched);
    return verifyRsaSha256(claim, fetched.publicKeyPem)
      ? this.signedBy(fetched)
      : { ok: false, reason: 'the signature does not verify with the signer’s key' };
  }

  private mayRefetch(keyId: string, now: number): boolean {
    const last = this.refetched.get(keyId);
    if (last !== undefined && now - last < REFETCH_INTERVAL_MS) return false;
    if (this.refetched.size >= 10_000) this.refetched.clear();
    this.refetched.set(keyId, now);
    return true;
  }

  private signedBy(key: RemoteKey): SignatureVerdict {
    return { ok: true, keyId: key.keyId, owner: key.owner };
  }

  /** The key and its owner, or why not. */
  private async fetchKey(keyId: string): Promise<RemoteKey | string> {
    const url = keyId.split('#')[0]!;
    // A key that failed to verify must come from its server, not from a document fetched a moment ago.
    this.client.forget(url);
    const fetched = await this.client.fetchDocument(url);
    if (!fetched.ok) return fetched.reason;
    const document = fetched.document;
    const fetchedAt = this.clock.now();

    const listed = listedKey(document, keyId);
    if (listed !== null && document.id === url) return { keyId, owner: url, publicKeyPem: listed, fetchedAt };

    // A key document of its own (with `owner`), or an actor stub served at the key's URL (GoToSocial's
    // …/main-key): the owner's own document must list the key too.
    const owner = listed !== null ? httpUrl(document.id) : httpUrl(document.owner);
    const publicKeyPem =
      listed ??
      (document.id === keyId && typeof document.publicKeyPem === 'string' ? document.publicKeyPem : null);
    if (owner === null || publicKeyPem === null) return 'the key id names no public key';
    const ownerDocument = await this.client.fetchDocument(owner);
    if (!ownerDocument.ok) return `the key's owner: ${ownerDocument.reason}`;
    if (ownerDocument.document.id !== owner || listedKey(ownerDocument.document, keyId) !== publicKeyPem)
      return 'the key’s owner does not list the key';
    return { keyId, owner, publicKeyPem, fetchedAt };
  }
}
