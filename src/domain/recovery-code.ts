/**
 * Recovery codes are written in Crockford's base32 (lower-case): digits and letters without i, l, o and u, 32
 * symbols of 5 bits. A person may type them in either case, with or without the hyphens and spaces, and with i or l
 * for 1 and o for 0 — Crockford's own reading.
 */
export const RECOVERY_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** How many symbols a recovery code has (80 random bits). */
export const RECOVERY_CODE_SYMBOLS = 16;

/** A typed recovery code in the one form that is hashed: 16 symbols of the alphabet; null for anything else. */
export function canonicalRecoveryCode(typed: string): string | null {
  const symbols = typed.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
  if (symbols.length !== RECOVERY_CODE_SYMBOLS) return null;
  return [...symbols].every((c) => RECOVERY_CODE_ALPHABET.includes(c)) ? symbols : null;
}
