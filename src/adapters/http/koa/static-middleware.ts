import type { Context, Next } from 'koa';
import type { StaticFile } from '../../views/static-files.js';

/** Serves the few static files from memory; anything else falls through to the routes. */
export function staticFiles(files: ReadonlyMap<string, StaticFile>) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const file = ctx.method === 'GET' || ctx.method === 'HEAD' ? files.get(ctx.path) : undefined;
    if (!file) return next();
    ctx.type = file.type;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = file.body;
  };
}
