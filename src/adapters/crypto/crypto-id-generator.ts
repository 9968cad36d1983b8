import { randomBytes, randomInt } from 'node:crypto';
import type { IdGenerator } from '../../application/ports/id-generator.js';

export class CryptoIdGenerator implements IdGenerator {
  /** 128 random bits, base64url. */
  newId(): string {
    return randomBytes(16).toString('base64url');
  }

  random(): number {
    return randomInt(0, 2 ** 32) / 2 ** 32;
  }
}
