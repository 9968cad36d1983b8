import bcrypt from 'bcrypt';
import pLimit, { type LimitFunction } from 'p-limit';
import { randomBytes } from 'node:crypto';
import type { PasswordHasher } from '../../application/ports/password-hasher.js';

const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Native bcrypt: hashing and comparing run on libuv's thread pool, so a login storm does not stall the event loop
 * (bcryptjs or hashSync would). The dummy hash has the configured cost, so an unknown user costs a real compare.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  private dummyHash: Promise<string> | null = null;
  private readonly limit: LimitFunction;

  /**
   * `atOnce`: hashes and compares running at the same time; the rest wait their turn. One per core keeps a login
   * storm from crowding the event loop off the CPU (the thread pool has more threads than this machine has cores).
   */
  constructor(
    private readonly cost: number,
    atOnce = Number.POSITIVE_INFINITY,
  ) {
    this.limit = pLimit(atOnce);
  }

  /** Hashes and compares running now. */
  get running(): number {
    return this.limit.activeCount;
  }

  /** Hashes and compares waiting their turn. */
  get waiting(): number {
    return this.limit.pendingCount;
  }

  hash(passwordBytes: Uint8Array): Promise<string> {
    return this.limit(() => bcrypt.hash(toBuffer(passwordBytes), this.cost));
  }

  async verify(passwordBytes: Uint8Array, hash: string | null): Promise<boolean> {
    if (hash === null) {
      const dummy = await this.dummy();
      await this.limit(() => bcrypt.compare(toBuffer(passwordBytes), dummy));
      return false;
    }
    return this.limit(() => bcrypt.compare(toBuffer(passwordBytes), hash));
  }

  needsRehash(hash: string): boolean {
    // A bcrypt hash names its cost: $2b$12$… (a hash this code cannot read is left alone).
    const cost = /^\$2[abxy]?\$(\d{2})\$/.exec(hash)?.[1];
    return cost !== undefined && Number(cost) !== this.cost;
  }

  /** Computed once, lazily; warm it at start-up so the first unknown-user login is not slower than others. */
  dummy(): Promise<string> {
    this.dummyHash ??= bcrypt.hash(randomBytes(32), this.cost);
    return this.dummyHash;
  }
}
