import { hasLoneSurrogate } from './text.js';
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

/**
 * bcrypt stops reading at a NUL byte, so "a\0b" and "a\0c" would hash alike (and eight NULs would be the same
 * password as one): a password may not contain one at all.
 */
export function hasNulCharacter(password: string): boolean {
  return password.includes('\0');
}

export const NUL_CHARACTER_MESSAGE = 'A password cannot contain the NUL character.';

export type NewPasswordError =
  'password_too_short' | 'password_too_long' | 'password_has_nul' | 'password_not_text';

/** Lone surrogates all hash to the same bytes: such a password would match every other made of them. */
export const NOT_TEXT_MESSAGE = 'A password must be valid Unicode text (no unpaired surrogates).';

/** What a person is told when a new password breaks a rule. */
export function newPasswordMessage(error: NewPasswordError): string {
  if (error === 'password_has_nul') return NUL_CHARACTER_MESSAGE;
  if (error === 'password_not_text') return NOT_TEXT_MESSAGE;
  return `Use ${PASSWORD_MIN_CHARACTERS} to ${PASSWORD_MAX_CHARACTERS} characters.`;
}

export function checkNewPassword(password: string): Result<string, NewPasswordError> {
  if (hasNulCharacter(password)) return err('password_has_nul');
  if (hasLoneSurrogate(password)) return err('password_not_text');
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
  // The edges refuse such passwords; hashing one anyway would make every password that shares its prefix valid.
  if (hasNulCharacter(password)) throw new RangeError('a password with a NUL character cannot be hashed');
  return new TextEncoder().encode(password).subarray(0, PASSWORD_HASHED_BYTES);
}
