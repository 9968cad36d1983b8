/**
 * Whether `input` (against `base`, when given) is a URL the WHATWG URL parser reads — what `URL.canParse` says,
 * without using it: on Node 20 (seen on 20.20.2), `URL.canParse` starts answering false for URLs with non-ASCII
 * characters (an IDN host such as `bücher.example`) once it has been called a few thousand times, while `new URL`
 * keeps parsing them. A long-running L2 would then read a peer's IDN actor as no URL at all — and a domain rule
 * keyed on that host would not cover it. `new URL` is the parser itself, so this answers as the standard says.
 */
export function canParseUrl(input: string, base?: string): boolean {
  try {
    new URL(input, base);
    return true;
  } catch {
    return false;
  }
}
