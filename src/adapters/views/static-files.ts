import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const STATIC_DIR = fileURLToPath(new URL('./static/', import.meta.url));
const SCREENSHOTS_DIR = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticFile {
  readonly type: string;
  readonly body: Buffer;
}

function readDir(dir: string, prefix: string, into: Map<string, StaticFile>): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) into.set(`${prefix}${name}`, { type, body: readFileSync(join(dir, name)) });
  }
}

/**
 * The stylesheet, the favicon, the passkey script and the README's screenshots, read once at start-up into memory. A fixed map, so no
 * request path ever reaches the file system.
 */
export function loadStaticFiles(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  readDir(STATIC_DIR, '/static/', files);
  readDir(SCREENSHOTS_DIR, '/static/screenshots/', files);
  const favicon = files.get('/static/favicon.svg');
  if (favicon) files.set('/favicon.ico', favicon);
  return files;
}
