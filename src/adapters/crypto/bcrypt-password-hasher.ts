import bcrypt from 'bcrypt';
import { randomBytes } from 'node:crypto';
import type { PasswordHasher } from '../../application/ports/password-hasher.js';

const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Native bcrypt: hashing and comparing run on libuv's thread pool, so a login storm does not stall the event loop
 * (bcryptjs or hashSync would). The dummy hash has the configured cost, so an unknown user costs a real compare.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly cost: number) {}

  hash(passwordBytes: Uint8Array): Promise<string> {
    return bcrypt.hash(toBuffer(passwordBytes), this.cost);
  }

  async verify(passwordBytes: Uint8Array, hash: string | null): Promise<boolean> {
    if (hash === null) {
      await bcrypt.compare(toBuffer(passwordBytes), await this.dummy());
      return false;
    }
    return bcrypt.compare(toBuffer(passwordBytes), hash);
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
