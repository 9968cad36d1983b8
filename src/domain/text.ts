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
