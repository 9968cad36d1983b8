import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { KeyPair, KeyPairGenerator } from '../../application/ports/key-pair-generator.js';

const generate = promisify(generateKeyPair);

/** RSA-2048 via node:crypto's asynchronous API, which runs on the thread pool instead of the event loop. */
export class RsaKeyPairGenerator implements KeyPairGenerator {
  async generate(): Promise<KeyPair> {
    const { publicKey, privateKey } = await generate('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return { publicKeyPem: publicKey, privateKeyPem: privateKey };
  }
}
