// Whether a JSON success body is what its route declares: the check the route table runs outside production on
// every answer of a JSON route (and the hot paths on theirs), so that a presenter and the schema /openapi.json
// publishes cannot drift apart unnoticed.
import { isDeepStrictEqual } from 'node:util';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/** application/json and the `+json` types (activity+json, jrd+json): the bodies a schema describes. */
export const isJsonMediaType = (mediaType: string): boolean =>
  mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));

/** The body as the client reads it: what it serialises to, parsed back. */
function asSent(body: unknown): unknown {
  if (typeof body === 'string') return JSON.parse(body);
  if (Buffer.isBuffer(body)) return JSON.parse(body.toString('utf8'));
  return JSON.parse(JSON.stringify(body) ?? 'null');
}

/** The paths of the fields `sent` has that `kept` (what parsing kept of it) has not. */
function droppedFields(sent: unknown, kept: unknown, path = ''): string[] {
  if (typeof sent !== 'object' || sent === null || typeof kept !== 'object' || kept === null) return [];
  return Object.entries(sent).flatMap(([key, value]) => {
    const at = path === '' ? key : `${path}.${key}`;
    return key in kept ? droppedFields(value, (kept as Record<string, unknown>)[key], at) : [at];
  });
}

/**
 * Why a JSON success body is not what its route declares for its status and media type, or null when the zod
 * schema declared there describes it exactly: it parses, and parsing keeps every field (a schema drops the fields
 * it does not name, silently; a loose one, as ActivityStreams documents have, keeps them).
 */
export function undescribed(
  responses: RouteConfig['responses'],
  status: number,
  mediaType: string,
  body: unknown,
): string | null {
  const response = (responses as Record<string, { content?: Record<string, { schema?: unknown }> }>)[
    String(status)
  ];
  if (!response) return `status ${status} is not declared`;
  const schema = response.content?.[mediaType]?.schema;
  if (!(schema instanceof z.ZodType)) return `${status} declares no zod schema for ${mediaType}`;
  let sent: unknown;
  try {
    sent = asSent(body);
  } catch {
    return 'the body is not JSON';
  }
  const parsed = schema.safeParse(sent);
  if (!parsed.success)
    return parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
      .join('; ');
  if (isDeepStrictEqual(parsed.data, sent)) return null;
  const dropped = droppedFields(sent, parsed.data);
  return dropped.length > 0
    ? `fields the schema does not declare: ${dropped.join(', ')}`
    : 'parsing changed it';
}
