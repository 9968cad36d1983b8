import { readFileSync } from 'node:fs';

/** The version in package.json (two folders above src/ or dist/), shown in NodeInfo, the home JSON and pages. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
