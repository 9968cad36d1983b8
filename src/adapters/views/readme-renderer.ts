import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

/** The project README, two folders above src/ or dist/. */
export const README_PATH = fileURLToPath(new URL('../../../README.md', import.meta.url));

/**
 * The README as the home page shows it: headings shifted down one level (the page has its own h1), screenshots
 * served from /static/screenshots/, code blocks focusable. The README is the project's own file, not user input —
 * still, nothing in it runs on the page: raw HTML is shown as text, and only http(s), mailto, local and fragment
 * links become links (a `javascript:` link shows its text only).
 */
export function renderReadme(markdown: string): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const level = Math.min(depth + 1, 6);
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      // Links to files of the repository (docs/…) mean nothing on the site, and other schemes may run code: show
      // their text only.
      link({ href, tokens }) {
        const text = this.parser.parseInline(tokens);
        return /^(https?:|mailto:|\/|#)/i.test(href) && !/^\/\//.test(href) ? false : text;
      },
      html({ text }) {
        return escapeHtml(text);
      },
      image({ href, text }) {
        return /^(https?:|\/)/i.test(href) && !/^\/\//.test(href) ? false : escapeHtml(text);
      },
    },
    walkTokens(token) {
      if (token.type === 'image' && token.href.startsWith('docs/screenshots/')) {
        token.href = `/static/screenshots/${token.href.slice('docs/screenshots/'.length)}`;
      }
    },
  });
  // Code blocks scroll sideways on a phone: a keyboard must reach them, and a screen reader must name them.
  return marked
    .parse(markdown, { async: false })
    .replaceAll('<pre>', '<pre tabindex="0" aria-label="Code example">');
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Reads and renders the README once; a missing README leaves the home page with statistics only. */
export function loadReadme(path = README_PATH): string {
  try {
    return renderReadme(readFileSync(path, 'utf8'));
  } catch {
    return '';
  }
}
