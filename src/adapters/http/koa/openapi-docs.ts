// The pieces route descriptions share: JSON answers, request bodies, list parameters, security — and the refusals'
// responses, built from what a route declares.
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { AUTHENTICATION } from './errors/account-errors.js';
import { CSRF_ERRORS, JSON_BODY, NOT_ACCEPTABLE, QUERY_ERRORS } from './errors/edge-errors.js';
import type { Answer, Refusals } from './errors/error-table.js';
import { SCOPED_TOKEN } from './errors/shared-refusals.js';
import { OAuthError } from '../shared/oauth-schemas.js';
import * as schemas from '../shared/schemas.js';

type Responses = RouteConfig['responses'];

export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/**
 * The refusals a route declares, as OpenAPI responses: one per status, its description giving each code with when
 * it happens (the cases of one code merged), its problem schema naming the codes.
 */
export function errorResponses(answers: readonly Answer[]): Responses {
  const statuses = new Map<number, Map<string, string[]>>();
  for (const { status, code, doc } of answers) {
    const codes = statuses.get(status) ?? new Map<string, string[]>();
    const cases = codes.get(code) ?? [];
    if (!cases.includes(doc)) cases.push(doc);
    statuses.set(status, codes.set(code, cases));
  }
  const oauthCodes = new Map<number, Set<string>>();
  for (const { status, code, oauth } of answers)
    if (oauth) oauthCodes.set(status, (oauthCodes.get(status) ?? new Set()).add(code));
  return Object.fromEntries(
    [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        status,
        {
          description: [...codes].map(([code, cases]) => `${code}: ${cases.join(', or ')}`).join('; '),
          content: errorContent([...codes.keys()], [...(oauthCodes.get(status) ?? [])]),
        },
      ]),
  );
}

/**
 * The bodies of one status: a problem naming its codes, and RFC 6749 JSON for the OAuth refusals among them (an
 * OAuth endpoint answers its own refusals that way, and the body parser's as problems).
 */
function errorContent(codes: readonly string[], oauthCodes: readonly string[]) {
  const problemCodes = codes.filter((code) => !oauthCodes.includes(code));
  return {
    ...(problemCodes.length > 0
      ? {
          'application/problem+json': {
            schema: schemas.Problem.extend({ code: z.enum(problemCodes as [string, ...string[]]) }),
          },
        }
      : {}),
    ...(oauthCodes.length > 0
      ? {
          'application/json': {
            schema: OAuthError.extend({ error: z.enum(oauthCodes as [string, ...string[]]) }),
          },
        }
      : {}),
  };
}

/** A JSON or form body, as every POST and PATCH of the API takes. */
export const body = (schema: z.ZodType) => ({
  body: {
    required: true,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  },
});

export const signedIn: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];

/** What `requireSession` refuses with: no or a bad token, or a token scoped to an L1 server. */
export const SESSION = [AUTHENTICATION, SCOPED_TOKEN] as const;

/** A write in a session: a request authenticated by the cookie must carry its CSRF token too. */
export const SESSION_WRITE = [...SESSION, CSRF_ERRORS] as const;

/** A negotiated list of the caller's own (sessions, renderers), which a token scoped to an L1 server may not see. */
export const ownListDoc = (summary: string, schema: z.ZodType, description: string) => ({
  summary,
  security: signedIn,
  responses: { 200: json(schema, description) },
  refusals: [NOT_ACCEPTABLE, ...SESSION],
});

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

/**
 * A negotiated answer: the plain JSON `schema` describes, or the ActivityStreams document (application/activity+json,
 * which every peer reads; a document whose shape is the ActivityStreams vocabulary's, not this API's).
 */
export const jsonOrActivityStreams = (schema: z.ZodType, description: string) => ({
  description,
  content: {
    'application/json': { schema },
    'application/activity+json': { schema: z.object({}).passthrough() },
  },
});

export const listParams = z.object({
  limit: z.string().optional().openapi({ description: '1–100, default 20', example: '20' }),
  before: z.string().optional().openapi({ description: 'Cursor from `next`: entries older than this' }),
  after: z.string().optional().openapi({ description: 'Cursor from `prev`: entries newer than this' }),
});

/** A negotiated, cursor-paged list (API.md §0): its JSON page, refused for a bad query or an unmet Accept. */
export const listDoc = (
  summary: string,
  schema: z.ZodType,
  query: z.ZodObject = listParams,
  refusals: readonly Refusals[] = [],
) => ({
  summary,
  description: negotiated,
  request: { query },
  responses: { 200: json(schema, 'A page') },
  refusals: [NOT_ACCEPTABLE, QUERY_ERRORS, ...refusals],
});

/**
 * A signed-in POST taking a JSON or form body: its success, the form's redirect, and its refusals — the session's,
 * the body's and those of `refusals`.
 */
export const signedInPostDoc = (input: {
  summary: string;
  body: z.ZodType;
  ok: [status: number, schema: z.ZodType, description: string];
  redirect: string;
  refusals: readonly Refusals[];
}) => ({
  summary: input.summary,
  security: signedIn,
  request: body(input.body),
  responses: {
    [input.ok[0]]: json(input.ok[1], input.ok[2]),
    303: { description: input.redirect },
  },
  refusals: [...SESSION_WRITE, ...JSON_BODY, ...input.refusals],
});

export const nameParam = z.object({ name: z.string().openapi({ example: 'sunset' }) });
export const userParam = z.object({ username: z.string().openapi({ example: 'alice' }) });
