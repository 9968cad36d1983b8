/** The representations a route can produce. */
export type Representation = 'html' | 'json' | 'ap';

const MEDIA_TYPES: Record<Representation, readonly string[]> = {
  html: ['text/html', 'application/xhtml+xml'],
  json: ['application/json'],
  ap: ['application/activity+json', 'application/ld+json'],
};

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [range = '', ...params] = part.split(';').map((p) => p.trim());
      const [type = '', subtype = ''] = range.toLowerCase().split('/');
      const qParam = params.find((p) => /^q=/i.test(p));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { type, subtype, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 };
    });
}

/** The q-value the header gives one media type: the most specific matching range decides (RFC 9110 §12.5.1). */
function qualityOf(mediaType: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.split('/');
  let best = { specificity: -1, q: 0 };
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best.q;
}

/**
 * Picks the representation to answer with, or null when the client accepts none (→ 406). `offered` is in the
 * route's order of preference, which breaks ties: with no Accept, `*\/*`, or equal q-values the first wins.
 */
export function negotiate(
  acceptHeader: string | undefined,
  offered: readonly Representation[],
): Representation | null {
  if (!acceptHeader || acceptHeader.trim() === '') return offered[0] ?? null;
  const ranges = parseAccept(acceptHeader);
  let chosen: Representation | null = null;
  let bestQ = 0;
  for (const representation of offered) {
    const q = Math.max(...MEDIA_TYPES[representation].map((m) => qualityOf(m, ranges)));
    if (q > bestQ) {
      bestQ = q;
      chosen = representation;
    }
  }
  return chosen;
}

/** Whether an error should be shown as a page: only when the client clearly prefers HTML over JSON. */
export function prefersHtml(acceptHeader: string | undefined): boolean {
  if (!acceptHeader) return false;
  const ranges = parseAccept(acceptHeader);
  const html = Math.max(...MEDIA_TYPES.html.map((m) => qualityOf(m, ranges)));
  const json = Math.max(qualityOf('application/json', ranges), qualityOf('application/problem+json', ranges));
  return html > json;
}
