import { createPublicKey, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** RSA moduli peers may sign with: 2048 bits is the fediverse's norm, 4096 the largest anyone uses. */
export const RSA_MODULUS_BITS = { min: 2048, max: 4096 } as const;
/**
 * The largest RSA public exponent accepted. Verification costs one squaring per exponent bit: 65537 (17 bits) is
 * what every implementation uses; a 3000-bit exponent made one verification cost ~11 ms of the event loop.
 */
export const MAX_RSA_EXPONENT = 2n ** 32n;

export type ParsedKey =
  { readonly ok: true; readonly key: KeyObject } | { readonly ok: false; reason: string };

/** Whether a parsed public key is one this service verifies with: bounded RSA, or Ed25519. */
function judge(key: KeyObject): string | null {
  if (key.asymmetricKeyType === 'ed25519') return null;
  if (key.asymmetricKeyType !== 'rsa') return `a ${key.asymmetricKeyType ?? 'unknown'} key is not accepted`;
  const { modulusLength = 0, publicExponent = 0n } = key.asymmetricKeyDetails ?? {};
  if (modulusLength < RSA_MODULUS_BITS.min || modulusLength > RSA_MODULUS_BITS.max)
    return `an RSA modulus of ${modulusLength} bits is outside ${RSA_MODULUS_BITS.min}–${RSA_MODULUS_BITS.max}`;
  if (publicExponent > MAX_RSA_EXPONENT || publicExponent < 3n || publicExponent % 2n === 0n)
    return 'the RSA public exponent is not an odd number of at most 2^32';
  return null;
}

/**
 * Peers' public keys, parsed once per PEM and kept as key objects (parsing costs a good part of a verification).
 * A key outside the rules is refused here, so no signature is ever checked with it — also one stored before the
 * rules existed.
 */
export class PeerPublicKeys {
  private readonly parsed = new LRUCache<string, ParsedKey>({ max: 10_000 });

  parse(pem: string): ParsedKey {
    let result = this.parsed.get(pem);
    if (result === undefined) {
      result = parseUncached(pem);
      this.parsed.set(pem, result);
    }
    return result;
  }
}

function parseUncached(pem: string): ParsedKey {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    return { ok: false, reason: 'the public key cannot be read' };
  }
  const refusal = judge(key);
  return refusal === null ? { ok: true, key } : { ok: false, reason: refusal };
}
