import type { Context } from 'koa';
import { negotiate, type Representation } from '../shared/negotiate.js';
import { NOT_ACCEPTABLE } from './errors/edge-errors.js';
import { AP_CONTENT_TYPE, JSON_CONTENT_TYPE } from '../content-types.js';
import type { Answer } from '../hot-paths/answers.js';

type Handlers = Partial<Record<Representation, () => unknown>>;

/**
 * Content negotiation for a (neg) route: picks a representation among those the route has, in the order the
 * handlers are written (ties go to the first), sets `Vary: Accept`, and answers 406 for anything else. JSON and ActivityStreams
 * handlers return the body; the HTML handler renders into ctx itself.
 */
export async function respond(ctx: Context, handlers: Handlers): Promise<void> {
  ctx.vary('Accept');
  const offered = Object.keys(handlers) as Representation[];
  const chosen = negotiate(ctx.get('Accept'), offered);
  if (!chosen)
    throw NOT_ACCEPTABLE.problem({ type: 'not_acceptable', offered: offered.map(describe).join(', ') });
  const body = await handlers[chosen]!();
  if (chosen === 'html') return;
  ctx.body = body;
  ctx.type = chosen === 'ap' ? AP_CONTENT_TYPE : JSON_CONTENT_TYPE;
}

/** Sends an answer both front ends share (hot-paths/answers.ts): its headers, content type and body. */
export function sendAnswer(ctx: Context, answer: Answer): void {
  for (const [name, value] of answer.headers) ctx.set(name, value);
  ctx.type = answer.contentType;
  ctx.body = answer.body;
}

const describe = (r: Representation) =>
  r === 'html' ? 'text/html' : r === 'json' ? 'application/json' : 'application/activity+json';
