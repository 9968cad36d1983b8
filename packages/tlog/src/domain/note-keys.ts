import { concatBytes, decodeBase64, encodeBase64, isWellFormedText, utf8 } from './bytes.js';
import type { Ed25519KeyPair, Sha256 } from './injected-crypto.js';
import { err, ok, type Result } from './result.js';

/**
 * Keys of c2sp.org/signed-note, Ed25519 only (signature type 0x01; the spec asks implementations
 * to support just the types they need). A verifier key is written
 *
 *   <name>+<key ID as 8 lowercase hex digits>+<base64(0x01 ‖ 32-byte public key)>
 *
 * as golang.org/x/mod/sumdb/note reads it; the key ID is the first four bytes, big-endian, of
 * SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key).
 */

export const ED25519_SIGNATURE_TYPE = 0x01;
const ED25519_PUBLIC_KEY_SIZE = 32;

export interface NoteVerifierKey {
  readonly name: string;
  /** uint32 */
  readonly keyId: number;
  readonly publicKey: Uint8Array;
}

export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  sign(message: Uint8Array): Uint8Array;
}

export type VerifierKeyError =
  | { readonly type: 'malformed_verifier_key'; readonly reason: string }
  | { readonly type: 'unsupported_signature_type'; readonly signatureType: number }
  | { readonly type: 'key_id_mismatch'; readonly stated: string; readonly computed: string };

/** Key names are non-empty and hold no Unicode space and no `+` (signed-note §Format). */
export const isValidKeyName = (name: string): boolean =>
  name.length > 0 && isWellFormedText(name) && !/[\s\u0085+]/u.test(name);

export function noteKeyId(crypto: Sha256, name: string, publicKey: Uint8Array): number {
  const digest = crypto.sha256(utf8(name), new Uint8Array([0x0a, ED25519_SIGNATURE_TYPE]), publicKey);
  return ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
}

export const keyIdHex = (keyId: number): string => keyId.toString(16).padStart(8, '0');

export function formatVerifierKey(crypto: Sha256, name: string, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new RangeError(`not a signed-note key name: ${JSON.stringify(name)}`);
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) {
    throw new RangeError('an Ed25519 public key has 32 bytes');
  }
  const material = concatBytes([new Uint8Array([ED25519_SIGNATURE_TYPE]), publicKey]);
  return `${name}+${keyIdHex(noteKeyId(crypto, name, publicKey))}+${encodeBase64(material)}`;
}

export function parseVerifierKey(crypto: Sha256, text: string): Result<NoteVerifierKey, VerifierKeyError> {
  // The name cannot hold `+` and the hex is fixed-size, so the first two `+` split the key; the
  // base64 after them may hold more.
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (second < 0) return err({ type: 'malformed_verifier_key', reason: 'expected name+keyid+key' });
  const name = text.slice(0, first);
  const hex = text.slice(first + 1, second);
  const material = decodeBase64(text.slice(second + 1));
  if (!isValidKeyName(name)) return err({ type: 'malformed_verifier_key', reason: 'invalid key name' });
  if (!/^[0-9a-f]{8}$/.test(hex)) {
    return err({ type: 'malformed_verifier_key', reason: 'key ID is not 8 hex digits' });
  }
  if (material === null || material.length === 0) {
    return err({ type: 'malformed_verifier_key', reason: 'key is not base64' });
  }
  if (material[0] !== ED25519_SIGNATURE_TYPE) {
    return err({ type: 'unsupported_signature_type', signatureType: material[0]! });
  }
  const publicKey = material.slice(1);
  if (publicKey.length !== ED25519_PUBLIC_KEY_SIZE) {
    return err({ type: 'malformed_verifier_key', reason: 'an Ed25519 key has 32 bytes' });
  }
  const keyId = noteKeyId(crypto, name, publicKey);
  if (keyIdHex(keyId) !== hex) {
    return err({ type: 'key_id_mismatch', stated: hex, computed: keyIdHex(keyId) });
  }
  return ok({ name, keyId, publicKey });
}

/** A signer for notes under `name`, its key ID derived from the key as verifiers will derive it. */
export function noteSigner(crypto: Sha256, name: string, key: Ed25519KeyPair): NoteSigner {
  if (!isValidKeyName(name)) throw new RangeError(`not a signed-note key name: ${JSON.stringify(name)}`);
  return { name, keyId: noteKeyId(crypto, name, key.publicKey), sign: (message) => key.sign(message) };
}

/** The verifier key matching a signer's key pair, as `GET /tlog/key` serves it. */
export const verifierKeyOf = (crypto: Sha256, name: string, key: Ed25519KeyPair): NoteVerifierKey => ({
  name,
  keyId: noteKeyId(crypto, name, key.publicKey),
  publicKey: key.publicKey,
});
