import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { SecretGenerator } from '../../application/ports/secret-generator.js';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_SYMBOLS } from '../../domain/recovery-code.js';

export class CryptoSecretGenerator implements SecretGenerator {
  newToken(): string {
    return randomBytes(32).toString('base64url');
  }

  newRecoveryCode(): string {
    const pick = () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)]!;
    const symbols = Array.from({ length: RECOVERY_CODE_SYMBOLS }, pick).join('');
    return symbols.match(/.{4}/g)!.join('-');
  }

  digest(secret: string): string {
    return createHash('sha256').update(secret, 'utf8').digest('hex');
  }

  sameDigest(a: string, b: string): boolean {
    const x = Buffer.from(a, 'utf8');
    const y = Buffer.from(b, 'utf8');
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
