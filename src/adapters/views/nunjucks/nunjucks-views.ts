import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type nunjucks from 'nunjucks';
import { altTextOf } from '../../../domain/asset-note.js';
import {
  ALT_TEXT_MAX_CHARACTERS,
  ASSET_NAME_RULE,
  DESCRIPTION_MAX_CHARACTERS,
  isHttps,
  TAGS_MAX,
  URL_MAX_CHARACTERS,
  type Asset,
} from '../../../domain/asset.js';
import { PASSWORD_HASHED_BYTES, PASSWORD_MIN_CHARACTERS } from '../../../domain/password.js';
import { USERNAME_RULE } from '../../../domain/user.js';

const TEMPLATES = fileURLToPath(new URL('./templates/', import.meta.url));

/** What every page needs from the request: who is signed in, the CSRF token for its forms, where it is. */
export interface PageContext {
  readonly currentUser: string | null;
  readonly csrfToken: string;
  /** The request path, to mark the current navigation link. */
  readonly path: string;
}

/**
 * The domain's rules as the forms spell them in attributes and hints (`rules.username.typedPattern`, …): a page
 * cannot promise one limit while the service checks another. The asset-name pattern is printed `| safe`: it is
 * ours, and autoescape would write its backslash as `&#92;`.
 */
const RULES = {
  username: USERNAME_RULE,
  password: { minCharacters: PASSWORD_MIN_CHARACTERS, hashedBytes: PASSWORD_HASHED_BYTES },
  assetName: ASSET_NAME_RULE,
  description: { maxCharacters: DESCRIPTION_MAX_CHARACTERS },
  tags: { max: TAGS_MAX },
  altText: { maxCharacters: ALT_TEXT_MAX_CHARACTERS },
  url: { maxCharacters: URL_MAX_CHARACTERS },
} as const;

/**
 * An asset (its JSON form) as a picture a page may show — `{ url, alt }` for an https image, else null — with the
 * alt text peers read (API.md §4.1: the alt text, else the description, else the name). A page never loads a file
 * over plain http.
 */
const pictureOf = (asset: unknown): { url: string; alt: string } | null => {
  if (typeof asset !== 'object' || asset === null) return null;
  const { name, url, media_type, description, alt_text } = asset as Record<string, unknown>;
  if (typeof url !== 'string' || !isHttps(url) || typeof media_type !== 'string') return null;
  if (!media_type.startsWith('image/')) return null;
  const alt = altTextOf({
    name: String(name ?? ''),
    description: typeof description === 'string' ? description : '',
    altText: typeof alt_text === 'string' ? alt_text : null,
  } as Asset);
  return { url, alt };
};

/** "2026-11-22T10:00:00.000Z" → "2026-11-22 10:00 UTC": readable, unambiguous, no client-side script needed. */
const readableDate = (iso: unknown): string =>
  typeof iso === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso)
    ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
    : String(iso ?? '');

/**
 * Server-side templates. Autoescaping is on: nothing in a view model is trusted as HTML. The template engine is
 * loaded with the first page (a CommonJS module, required synchronously then): a service that only answers API
 * calls never holds it in memory.
 */
export class NunjucksViews {
  private loaded: nunjucks.Environment | null = null;

  constructor(private readonly options: { cache: boolean; version: string }) {}

  render(template: string, page: PageContext, model: Record<string, unknown> = {}): string {
    return this.env().render(`${template}.njk`, {
      ...model,
      page: { ...page, version: this.options.version },
    });
  }

  private env(): nunjucks.Environment {
    if (this.loaded) return this.loaded;
    const engine = createRequire(import.meta.url)('nunjucks') as typeof nunjucks;
    const env = new engine.Environment(
      new engine.FileSystemLoader(TEMPLATES, { noCache: !this.options.cache }),
      {
        autoescape: true,
        throwOnUndefined: false,
        trimBlocks: true,
        lstripBlocks: true,
      },
    );
    env.addFilter('date', readableDate);
    env.addFilter('picture', pictureOf);
    env.addFilter('pluck', (items: unknown, key: string) =>
      Array.isArray(items) ? items.map((item) => (item as Record<string, unknown> | null)?.[key]) : [],
    );
    env.addGlobal('version', this.options.version);
    env.addGlobal('rules', RULES);
    this.loaded = env;
    return env;
  }
}
