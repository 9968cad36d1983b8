/**
 * Byte helpers without Node's Buffer, so the module runs in any JavaScript runtime.
 * Base64 is the standard alphabet with padding (RFC 4648 §4), decoded strictly: one spelling per
 * value, so a hash, key or signature cannot be written two ways that both parse.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE_OF = new Map([...ALPHABET].map((char, value) => [char, value]));

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(chunk >> 18) & 63]! + ALPHABET[(chunk >> 12) & 63]!;
    out += i + 1 < bytes.length ? ALPHABET[(chunk >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? ALPHABET[chunk & 63]! : '=';
  }
  return out;
}

/** The bytes of canonical padded base64, or null for anything else (whitespace, missing padding, stray bits). */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let written = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const values: number[] = [];
    for (let j = 0; j < 4; j++) {
      const char = text[i + j]!;
      if (char === '=' && last && j >= 4 - padding) continue;
      const value = VALUE_OF.get(char);
      if (value === undefined) return null;
      values.push(value);
    }
    const chunk =
      ((values[0]! << 18) | (values[1]! << 12) | ((values[2] ?? 0) << 6) | (values[3] ?? 0)) >>> 0;
    // Non-zero bits under the padding would give a second spelling of the same bytes.
    if (
      (padding === 2 && last && (chunk & 0xffff) !== 0) ||
      (padding === 1 && last && (chunk & 0xff) !== 0)
    ) {
      return null;
    }
    const bytes = [(chunk >> 16) & 0xff, (chunk >> 8) & 0xff, chunk & 0xff];
    for (let k = 0; k < bytes.length && written < out.length; k++) out[written++] = bytes[k]!;
  }
  return out;
}

const encoder = new TextEncoder();
// fatal: invalid UTF-8 is refused rather than replaced; ignoreBOM: a leading U+FEFF stays part of the text.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** The text of valid UTF-8 bytes, or null. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** True when a JavaScript string has no lone surrogate, i.e. is exactly representable in UTF-8. */
export const isWellFormedText = (text: string): boolean => decodeUtf8(utf8(text)) === text;

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export const hexOf = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** A tree size or index in canonical decimal (no sign, no leading zero), as checkpoints and proofs write them. */
export function parseDecimal(text: string): number | null {
  if (!/^(0|[1-9][0-9]*)$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}
