import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';

/** The key a document client signs its `private_key_jwt` assertions with, and what its document publishes. */
export interface ClientKey {
  privateKey: KeyObject;
  /** ES256 for a P-256 key, RS256 for an RSA key: the two L2 accepts (API.md §2.5). */
  alg: 'ES256' | 'RS256';
  /** The public half as a JWK (no private members), without `kid`/`use`/`alg`. */
  publicJwk: Record<string, unknown>;
}

const MIN_RSA_BITS = 2048;

/**
 * The client key from `key` (a PKCS#8 PEM string or a private `KeyObject`) or `keyFile` (a PKCS#8 PEM file, created
 * with a fresh P-256 key, mode 0600, when it does not exist yet). Synchronous: it runs once, when the kit is made, and
 * a key that cannot be read or is of a kind L2 refuses stops the start-up with a `TypeError` saying why.
 */
export function loadClientKey(source: { key?: string | KeyObject; keyFile?: string }): ClientKey {
  if ((source.key === undefined) === (source.keyFile === undefined)) {
    throw new TypeError('client needs exactly one of key and keyFile');
  }
  const privateKey =
    source.key !== undefined ? privateKeyOf(source.key, 'client.key') : keyFromFile(source.keyFile!);
  return describe(privateKey);
}

function keyFromFile(path: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') {
      throw new TypeError(`client.keyFile ${path} cannot be read: ${(error as Error).message}`);
    }
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // 'wx': another process that created the file meanwhile wins; its key is read below.
    try {
      writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
      chmodSync(path, 0o600); // whatever the umask
    } catch (written) {
      if ((written as { code?: unknown }).code !== 'EEXIST') {
        throw new TypeError(`client.keyFile ${path} cannot be created: ${(written as Error).message}`);
      }
      pem = readFileSync(path, 'utf8');
    }
  }
  return privateKeyOf(pem, `client.keyFile ${path}`);
}

function privateKeyOf(key: string | KeyObject, what: string): KeyObject {
  if (typeof key !== 'string') {
    if (key.type !== 'private') throw new TypeError(`${what} must be a private key`);
    return key;
  }
  try {
    return createPrivateKey(key);
  } catch {
    throw new TypeError(`${what} is not a private key in PEM`);
  }
}

function describe(privateKey: KeyObject): ClientKey {
  const details = privateKey.asymmetricKeyDetails ?? {};
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as Record<string, unknown>;
  if (privateKey.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') {
    return { privateKey, alg: 'ES256', publicJwk };
  }
  if (privateKey.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= MIN_RSA_BITS) {
    return { privateKey, alg: 'RS256', publicJwk };
  }
  throw new TypeError(`the client key must be EC P-256 or RSA of at least ${MIN_RSA_BITS} bits`);
}
