import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import pLimit, { type LimitFunction } from 'p-limit';
import type { KeyPair, KeyPairGenerator } from '../../application/ports/key-pair-generator.js';

const generate = promisify(generateKeyPair);

/**
 * RSA-2048 via node:crypto's asynchronous API, which runs on the thread pool instead of the event loop. At most
 * `maxConcurrent` generations run at once (one per core): a burst of registrations would otherwise fill the
 * thread pool that bcrypt, file reads and DNS lookups share, and stall every login behind it; the rest wait in
 * line.
 */
export class RsaKeyPairGenerator implements KeyPairGenerator {
  private readonly limit: LimitFunction;

  constructor(maxConcurrent: number) {
    this.limit = pLimit(Math.max(1, maxConcurrent));
  }

  /** Generations running now, and waiting for a turn. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.limit.activeCount, waiting: this.limit.pendingCount };
  }

  generate(): Promise<KeyPair> {
    return this.limit(async () => {
      const { publicKey, privateKey } = await generate('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      return { publicKeyPem: publicKey, privateKeyPem: privateKey };
    });
  }
}
