/**
 * The least string above every string that starts with `prefix`, in Unicode code point order — the order of
 * SQLite's BINARY collation on UTF-8 text and of MongoDB string comparison without a collation — or null when
 * there is none (a prefix of only U+10FFFF). With it a case-sensitive prefix match is the index range
 * `name >= prefix AND name < successor`, in which `_`, `%` and regular-expression characters are plain characters
 * (LIKE would ignore case and read them as wildcards).
 */
export function prefixSuccessor(prefix: string): string | null {
  const codePoints = Array.from(prefix, (char) => char.codePointAt(0) ?? 0);
  while (codePoints.length > 0) {
    const last = codePoints.pop() ?? 0;
    if (last < 0x10ffff) {
      // Surrogate code points are not characters: the one after U+D7FF is U+E000.
      return String.fromCodePoint(...codePoints, last === 0xd7ff ? 0xe000 : last + 1);
    }
  }
  return null;
}
