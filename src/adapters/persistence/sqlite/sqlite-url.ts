import type { StoreUrl } from '../store-driver.js';

const SCHEME = 'sqlite:';

/** `sqlite:<path>`: a file, created with its directory if need be; `sqlite::memory:` a private in-memory database. */
export const SQLITE_URL: StoreUrl = {
  form: `${SCHEME}<path>`,
  names: (url) => url.startsWith(SCHEME),
  problemWith: (url) =>
    sqlitePathIn(url) === '' ? `${SCHEME} needs a file path, e.g. ${SCHEME}./data/l2.sqlite` : null,
};

/** The file path of a `sqlite:` URL. */
export const sqlitePathIn = (url: string): string => url.slice(SCHEME.length);
