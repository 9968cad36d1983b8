import { concatBytes, decodeBase64, decodeUtf8, encodeBase64, isWellFormedText, utf8 } from './bytes.js';
import type { VerifyEd25519 } from './injected-crypto.js';
import { isValidKeyName, type NoteSigner, type NoteVerifierKey } from './note-keys.js';
import { err, ok, type Result } from './result.js';

/**
 * Signed notes (c2sp.org/signed-note): a text ending in a newline, a blank line, then one line per
 * signature, `— <key name> <base64(4-byte key ID ‖ signature)>`.
 *
 * Opening follows the spec's trust rules: signatures from unknown keys (name and ID not both
 * matching a known key) are ignored; a signature from a known key must verify or the whole note is
 * refused; at least one must verify. Every signature by a known key is checked, repeated ones too.
 */

const SIGNATURE_PREFIX = '\u2014 ';
/** The spec asks verifiers to accept at least 16 signatures; beyond this, opening is refused. */
export const MAX_NOTE_SIGNATURES = 100;

export interface NoteSignature {
  readonly name: string;
  readonly keyId: number;
  readonly signature: Uint8Array;
}

export interface OpenedNote {
  /** The signed text, final newline included. */
  readonly text: string;
  /** Signatures by known keys, all verified. */
  readonly verified: readonly NoteSignature[];
  /** Signatures by keys the caller did not name (cosignatures, rotated keys), unverified. */
  readonly unverified: readonly NoteSignature[];
}

export type NoteError =
  | { readonly type: 'malformed_note'; readonly reason: string }
  | { readonly type: 'ambiguous_verifier_keys'; readonly name: string; readonly keyId: number }
  | { readonly type: 'invalid_signature'; readonly name: string; readonly keyId: number }
  | { readonly type: 'no_verified_signature' };

/** Signed notes are UTF-8 without ASCII control characters other than newline. */
function hasOnlyNoteCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x0a) return false;
  }
  return isWellFormedText(text);
}

export function signNote(text: string, signers: readonly NoteSigner[]): string {
  if (!text.endsWith('\n') || !hasOnlyNoteCharacters(text)) throw new RangeError('not a note text');
  if (signers.length === 0) throw new RangeError('a note needs a signature');
  const message = utf8(text);
  const lines = signers.map((signer) => {
    const keyId = new Uint8Array([
      signer.keyId >>> 24,
      (signer.keyId >>> 16) & 0xff,
      (signer.keyId >>> 8) & 0xff,
      signer.keyId & 0xff,
    ]);
    return `${SIGNATURE_PREFIX}${signer.name} ${encodeBase64(concatBytes([keyId, signer.sign(message)]))}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

export function openNote(
  note: string | Uint8Array,
  known: readonly NoteVerifierKey[],
  verifyEd25519: VerifyEd25519,
): Result<OpenedNote, NoteError> {
  const malformed = (reason: string) => err({ type: 'malformed_note' as const, reason });
  const message = typeof note === 'string' ? note : decodeUtf8(note);
  if (message === null || !hasOnlyNoteCharacters(message)) {
    return malformed('not UTF-8 text without control characters');
  }
  const split = message.lastIndexOf('\n\n');
  if (split < 0) return malformed('no blank line before the signatures');
  const text = message.slice(0, split + 1);
  const block = message.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) return malformed('signatures must end with a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) return malformed(`more than ${MAX_NOTE_SIGNATURES} signatures`);

  const verified: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const textBytes = utf8(text);
  for (const line of lines) {
    const signature = parseSignatureLine(line);
    if (signature === null) return malformed('a signature line is not "— <name> <base64>"');
    const matches = known.filter((key) => key.name === signature.name && key.keyId === signature.keyId);
    if (matches.length > 1) {
      return err({ type: 'ambiguous_verifier_keys', name: signature.name, keyId: signature.keyId });
    }
    const key = matches[0];
    if (key === undefined) {
      unverified.push(signature);
    } else if (verifyEd25519(key.publicKey, textBytes, signature.signature)) {
      verified.push(signature);
    } else {
      return err({ type: 'invalid_signature', name: signature.name, keyId: signature.keyId });
    }
  }
  if (verified.length === 0) return err({ type: 'no_verified_signature' });
  return ok({ text, verified, unverified });
}

function parseSignatureLine(line: string): NoteSignature | null {
  if (!line.startsWith(SIGNATURE_PREFIX)) return null;
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space < 0) return null;
  const name = rest.slice(0, space);
  const bytes = decodeBase64(rest.slice(space + 1));
  // 4 bytes of key ID and at least one of signature.
  if (!isValidKeyName(name) || bytes === null || bytes.length < 5) return null;
  const keyId = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  return { name, keyId, signature: bytes.slice(4) };
}
