import { err, ok, type Result } from './result.js';

export const PASSWORD_MIN_CHARACTERS = 8;
export const PASSWORD_MAX_CHARACTERS = 4096;
/** bcrypt reads at most 72 bytes; the specification makes the truncation explicit and silent. */
export const PASSWORD_HASHED_BYTES = 72;

/** Characters are Unicode code points, so an emoji counts once whatever its UTF-16 length. */
export function passwordLength(password: string): number {
  let count = 0;
  for (const _ of password) count++;
  return count;
}

export function checkNewPassword(
  password: string,
): Result<string, 'password_too_short' | 'password_too_long'> {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_CHARACTERS) return err('password_too_short');
  if (length > PASSWORD_MAX_CHARACTERS) return err('password_too_long');
  return ok(password);
}

/**
 * The bytes that are hashed: the first 72 bytes of the UTF-8 encoding, cut at the byte even when that splits a
 * multi-byte character — exactly what bcrypt itself would see, so a password crossing byte 72 behaves the same
 * whichever bcrypt implementation reads it.
 */
export function passwordBytesForHashing(password: string): Uint8Array {
  return new TextEncoder().encode(password).subarray(0, PASSWORD_HASHED_BYTES);
}
