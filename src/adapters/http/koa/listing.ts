import type { Context } from 'koa';
import type { CursorRequest } from '../../../application/pagination.js';
import { QUERY_ERRORS } from './errors/edge-errors.js';
import { ListQuery } from '../shared/schemas.js';

/** The one value of a query parameter; a repeated parameter (`?q=a&q=b`, `?q[]=a`) is a 400, never ignored. */
export function singleQuery(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (ctx.query[`${name}[]`] === undefined && (value === undefined || typeof value === 'string'))
    return value;
  throw QUERY_ERRORS.problem({
    type: 'invalid_query',
    detail: `${name}: give it once.`,
    field: { path: name, message: 'Give it once.' },
  });
}

/** `?limit=` (1–100, default 20) and one of `?before=` / `?after=`; anything else is a 400. */
export function cursorRequest(ctx: Context): CursorRequest {
  const parsed = ListQuery.safeParse({
    limit: singleQuery(ctx, 'limit'),
    before: singleQuery(ctx, 'before'),
    after: singleQuery(ctx, 'after'),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = String(issue?.path[0] ?? 'query');
    throw QUERY_ERRORS.problem({
      type: 'invalid_query',
      detail: `${path}: ${path === 'limit' ? 'use 1 to 100' : 'not a valid cursor'}.`,
      field: { path, message: issue?.message ?? 'invalid' },
    });
  }
  const { limit, before, after } = parsed.data;
  if (before !== undefined && after !== undefined) {
    throw QUERY_ERRORS.problem({ type: 'invalid_query', detail: 'Use either before or after, not both.' });
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
