import type { Context } from 'koa';
import type { CursorRequest } from '../../../application/pagination.js';
import { HttpProblem } from './problem.js';
import { ListQuery } from './schemas.js';

/** `?limit=` (1–100, default 20) and one of `?before=` / `?after=`; anything else is a 400. */
export function cursorRequest(ctx: Context): CursorRequest {
  const parsed = ListQuery.safeParse({
    limit: ctx.query.limit,
    before: ctx.query.before,
    after: ctx.query.after,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = String(issue?.path[0] ?? 'query');
    throw new HttpProblem(
      400,
      'invalid_request',
      `${path}: ${path === 'limit' ? 'use 1 to 100' : 'not a valid cursor'}.`,
      {
        errors: [{ path, message: issue?.message ?? 'invalid' }],
      },
    );
  }
  const { limit, before, after } = parsed.data;
  if (before !== undefined && after !== undefined) {
    throw new HttpProblem(400, 'invalid_request', 'Use either before or after, not both.');
  }
  return { limit, ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
}

/** Builds the absolute URL of another page of this list: same path and filters, a new cursor. */
export function pageLink(ctx: Context, publicUrl: string): (cursor: Record<string, string>) => string {
  return (cursor) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(ctx.query)) {
      if (key === 'before' || key === 'after' || typeof value !== 'string') continue;
      params.set(key, value);
    }
    for (const [key, value] of Object.entries(cursor)) params.set(key, value);
    return `${publicUrl}${ctx.path}?${params.toString()}`;
  };
}
