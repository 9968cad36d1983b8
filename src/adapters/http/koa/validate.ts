import type { Context } from 'koa';
import type { z } from 'zod';
import { VALIDATION_ERRORS } from './errors/edge-errors.js';

/**
 * Parses the request body (or `input`, what a route made of it) with a schema, or throws `400 invalid_request`
 * listing every problem by field.
 */
export function validateBody<S extends z.ZodType>(
  ctx: Context,
  schema: S,
  input: unknown = ctx.request.body ?? {},
): z.output<S> {
  // reportInput lets "Required." be told apart from a value of the wrong type.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.code === 'invalid_type' && issue.input === undefined ? 'Required.' : issue.message,
  }));
  throw VALIDATION_ERRORS.problem({ type: 'invalid_request', errors });
}
