import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

/** The project README, two folders above src/ or dist/. */
export const README_PATH = fileURLToPath(new URL('../../../README.md', import.meta.url));

/**
 * The README as the home page shows it: headings shifted down one level (the page has its own h1), screenshots
 * served from /static/screenshots/, code blocks focusable. The README is our own file, not user input, so its HTML is trusted.
 */
export function renderReadme(markdown: string): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const level = Math.min(depth + 1, 6);
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      // Links to files of the repository (docs/…) mean nothing on the site: show their text only.
      link({ href, tokens }) {
        const text = this.parser.parseInline(tokens);
        return /^(https?:|mailto:|\/|#)/.test(href) ? false : text;
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

/** Reads and renders the README once; a missing README leaves the home page with statistics only. */
export function loadReadme(path = README_PATH): string {
  try {
    return renderReadme(readFileSync(path, 'utf8'));
  } catch {
    return '';
  }
}
