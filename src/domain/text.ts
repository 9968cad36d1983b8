/**
 * A lone UTF-16 surrogate is no character: encoded as UTF-8 it becomes U+FFFD (so SQLite stores something other
 * than what was signed), and every lone surrogate encodes to the same bytes (so passwords made of them collide).
 * `\p{Cs}` with the `u` flag matches exactly the unpaired ones.
 */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The text with each lone surrogate replaced by U+FFFD, as a UTF-8 round trip would leave it. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * Invisible format characters (`\p{Cf}`: bidi overrides, embeddings and isolates, marks, zero-width spaces, the
 * byte-order mark, soft hyphens, tag characters) but the zero-width non-joiner and joiner, which Persian and Indic
 * scripts and emoji sequences (👩‍💻) need.
 */
const INVISIBLE_FORMATTING = /(?![\u200C\u200D])\p{Cf}/gu;

/**
 * The text of a short, single-line field (a display name, a profile field, alt text, a tag) without invisible
 * formatting: a right-to-left override or a zero-width space there makes one name look like another, or a
 * `…gnp.exe` read as `…exe.png`. Prose (a description, a bio) keeps them: right-to-left writing needs its marks.
 */
export function withoutInvisibleFormatting(text: string): string {
  return text.replace(INVISIBLE_FORMATTING, '');
}
