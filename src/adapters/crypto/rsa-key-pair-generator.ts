import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import pLimit, { type LimitFunction } from 'p-limit';
import { OverloadedError } from '../../application/ports/errors.js';
import type { KeyPair, KeyPairGenerator } from '../../application/ports/key-pair-generator.js';

const generate = promisify(generateKeyPair);

/**
 * RSA-2048 via node:crypto's asynchronous API, which runs on the thread pool instead of the event loop. At most
 * `maxConcurrent` generations run at once: a burst of registrations would otherwise fill the thread pool (4 threads
 * unless UV_THREADPOOL_SIZE says otherwise) that bcrypt, file reads and DNS lookups share, and stall every login
 * behind it. The rest wait in line — at most `maxWaiting`; beyond that the generation is refused (OverloadedError,
 * a 503) rather than queued without end.
 */
export class RsaKeyPairGenerator implements KeyPairGenerator {
  private readonly limit: LimitFunction;

  constructor(
    maxConcurrent: number,
    private readonly maxWaiting = 64,
  ) {
    this.limit = pLimit(Math.max(1, maxConcurrent));
  }

  /** Generations running now, and waiting for a turn. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.limit.activeCount, waiting: this.limit.pendingCount };
  }

  async generate(): Promise<KeyPair> {
    if (this.limit.pendingCount >= this.maxWaiting) {
      throw new OverloadedError(`${this.limit.pendingCount} key generations are waiting already`);
    }
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

/**
 * The cap for this machine: at most two at once, and always two threads of the pool left for bcrypt and the rest
 * (libuv's pool has 4 threads unless UV_THREADPOOL_SIZE raises it).
 */
export function keyGenerationsAtOnce(cores: number, threadPoolSize: number): number {
  return Math.max(1, Math.min(2, cores, threadPoolSize - 2));
}
