// TOTP written from RFC 6238 and RFC 4226 for the tests alone, on node:crypto — not the service's implementation
// (otpauth) — and checked against RFC 6238's own test vectors (test/unit/rfc6238.test.ts).
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, as authenticator apps take secrets (padding and spaces ignored, any case). */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 §5.3: the HOTP value of `counter`. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** RFC 6238 §4: the code of the 30-second step holding `at` (T0 = 0). */
export function totp(key: Buffer, at: Date, options: { digits?: number; algorithm?: string } = {}): string {
  return hotp(key, Math.floor(at.getTime() / 1000 / 30), options.digits ?? 6, options.algorithm ?? 'sha1');
}

/** The code an authenticator app holding this base32 secret shows at `at`. */
export const codeAt = (secret: string, at: Date): string => totp(base32Decode(secret), at);

/** The secret of an `otpauth://totp/…?secret=…` URI. */
export function secretOfUri(uri: string): string {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
}
