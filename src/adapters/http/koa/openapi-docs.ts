// The pieces route descriptions share: JSON and problem answers, request bodies, list parameters, security.
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import * as schemas from './schemas.js';

type Responses = RouteConfig['responses'];

export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: schemas.Problem } },
});

/** A JSON or form body, as every POST and PATCH of the API takes. */
export const body = (schema: z.ZodType) => ({
  body: {
    required: true,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  },
});

export const commonBodyErrors: Responses = {
  400: problem('invalid_request: a field breaks its rule (see `errors`), or the JSON is malformed'),
  413: problem('payload_too_large: the body is over 64 KiB'),
  415: problem('unsupported_media_type: the body is neither JSON nor a form'),
};

export const signedIn: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];

export const tokenErrors: Responses = { 401: problem('unauthenticated or token_*') };

export const negotiated =
  'Content negotiation: text/html gives the page, application/json this JSON; see API.md §0.';

/** An ActivityStreams answer (also given to application/json on routes without a page). */
export const apJson = (description: string) => ({
  description,
  content: {
    'application/activity+json': { schema: z.object({}).passthrough() },
    'application/json': { schema: z.object({}).passthrough() },
  },
});

export const listParams = z.object({
  limit: z.string().optional().openapi({ description: '1–100, default 20', example: '20' }),
  before: z.string().optional().openapi({ description: 'Cursor from `next`: entries older than this' }),
  after: z.string().optional().openapi({ description: 'Cursor from `prev`: entries newer than this' }),
});

export const listErrors: Responses = {
  400: problem('invalid_request: a bad limit or cursor'),
  406: problem('not_acceptable'),
};

/** A negotiated, cursor-paged list (API.md §0): its JSON page and the usual list errors. */
export const listDoc = (summary: string, schema: z.ZodType, query: z.ZodObject = listParams) => ({
  summary,
  description: negotiated,
  request: { query },
  responses: { 200: json(schema, 'A page'), ...listErrors },
});

/**
 * A signed-in POST taking a JSON or form body: its success, the form's redirect, body and token errors, and the
 * 403 it may answer.
 */
export const signedInPostDoc = (input: {
  summary: string;
  body: z.ZodType;
  ok: [status: number, schema: z.ZodType, description: string];
  redirect: string;
  forbidden: string;
}) => ({
  summary: input.summary,
  security: signedIn,
  request: body(input.body),
  responses: {
    [input.ok[0]]: json(input.ok[1], input.ok[2]),
    303: { description: input.redirect },
    ...commonBodyErrors,
    ...tokenErrors,
    403: problem(input.forbidden),
  },
});

/** A description with more answers than its helper gives. */
export const withResponses = <D extends { responses: Responses }>(doc: D, more: Responses): D => ({
  ...doc,
  responses: { ...doc.responses, ...more },
});

export const nameParam = z.object({ name: z.string().openapi({ example: 'sunset' }) });
export const userParam = z.object({ username: z.string().openapi({ example: 'alice' }) });
