import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { Ed25519KeyPair, Sha256, VerifyEd25519 } from '../../domain/injected-crypto.js';

/** The transparency log's injected cryptography, by node:crypto. */

export const nodeSha256: Sha256 = {
  sha256(...parts) {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(part);
    // A plain Uint8Array, not a Buffer: the domain compares bytes, and Buffers compare differently in tests.
    return new Uint8Array(hash.digest());
  },
};

/** The raw 32-byte public key of an Ed25519 key object (its JWK `x`). */
function rawPublicKey(key: KeyObject): Uint8Array {
  const { x } = createPublicKey(key).export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(x!, 'base64url'));
}

/** The log's signing key from its PKCS#8 PEM file (`tlog_signing_key`); throws unless it is Ed25519. */
export function ed25519KeyPairFromPkcs8Pem(pem: string): Ed25519KeyPair {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(
      `the transparency log key must be Ed25519, not ${privateKey.asymmetricKeyType ?? 'unknown'}`,
    );
  }
  return {
    publicKey: rawPublicKey(privateKey),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

/** A new Ed25519 private key as PKCS#8 PEM, the format of `tlog_signing_key`. */
export const generateEd25519Pkcs8Pem = (): string =>
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

export const verifyEd25519: VerifyEd25519 = (publicKey, message, signature) => {
  if (publicKey.length !== 32) return false;
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
      format: 'jwk',
    });
    return verify(null, message, key, signature);
  } catch {
    // An encoding that is no point on the curve: not a valid signature, not a crash.
    return false;
  }
};
