import { canParseUrl } from './url-parse.js';
// Plain text as the HTML peers show (API.md §4.1, §4.2): escaped always, paragraphs and line breaks kept, and
// where asked, http(s) URLs made links.

/** Text shown by peers as HTML: escaped, so a description is always shown as the text it is. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
  );
}

/** An http(s) URL in running text: up to whitespace, without trailing punctuation that ends a sentence. */
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/** A link to `url`, showing the URL itself (Mastodon verifies a profile link only when its text is the URL). */
export const linkTo = (url: string, rel: string): string =>
  `<a href="${escapeHtml(url)}" rel="${rel}">${escapeHtml(url)}</a>`;

/** One line of text as HTML: escaped, with its http(s) URLs as links when `rel` is given. */
function lineHtml(line: string, rel: string | null): string {
  if (rel === null) return escapeHtml(line);
  let html = '';
  let at = 0;
  for (const match of line.matchAll(URL_IN_TEXT)) {
    html += escapeHtml(line.slice(at, match.index)) + linkTo(match[0], rel);
    at = match.index + match[0].length;
  }
  return html + escapeHtml(line.slice(at));
}

/**
 * Plain text as HTML paragraphs: a blank line starts a new `<p>`, a single line break is `<br>`. With `linkRel`,
 * http(s) URLs become links with that `rel`. Empty text is no paragraph at all.
 */
export function paragraphsHtml(text: string, linkRel: string | null = null): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n\s*/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map(
      (paragraph) =>
        `<p>${paragraph
          .split('\n')
          .map((line) => lineHtml(line, linkRel))
          .join('<br>')}</p>`,
    )
    .join('');
}

/** A value as one line of HTML: escaped, and as a link when the whole value is an http(s) URL. */
export function valueHtml(value: string, linkRel: string): string {
  return /^https?:\/\/\S+$/.test(value) && canParseUrl(value) ? linkTo(value, linkRel) : escapeHtml(value);
}
