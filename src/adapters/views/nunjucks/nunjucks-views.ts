import { fileURLToPath } from 'node:url';
import nunjucks from 'nunjucks';

const TEMPLATES = fileURLToPath(new URL('./templates/', import.meta.url));

/** What every page needs from the request: who is signed in and the CSRF token for its forms. */
export interface PageContext {
  readonly currentUser: string | null;
  readonly csrfToken: string;
}

/** Server-side templates. Autoescaping is on: nothing in a view model is trusted as HTML. */
export class NunjucksViews {
  private readonly env: nunjucks.Environment;

  constructor(options: { cache: boolean }) {
    this.env = new nunjucks.Environment(
      new nunjucks.FileSystemLoader(TEMPLATES, { noCache: !options.cache }),
      {
        autoescape: true,
        throwOnUndefined: false,
        trimBlocks: true,
        lstripBlocks: true,
      },
    );
  }

  render(template: string, page: PageContext, model: Record<string, unknown> = {}): string {
    return this.env.render(`${template}.njk`, { ...model, page });
  }
}
