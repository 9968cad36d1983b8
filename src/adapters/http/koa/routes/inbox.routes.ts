// Inboxes (API.md §5): activities other servers sign and post, to one user or to the shared inbox.
import type { Context } from 'koa';
import { z } from 'zod';
import { refusalReason } from '../../../../application/use-cases/federation/receive-activity.js';
import { clientAddress } from '../../shared/client-address.js';
import type { HttpDependencies } from '../dependencies.js';
import { INBOX_BODY_ERRORS } from '../errors/edge-errors.js';
import type { ErrorTable } from '../errors/error-table.js';
import { INBOX_ERRORS } from '../errors/federation-errors.js';
import { userParam } from '../openapi-docs.js';
import type { RouteDoc, RouteTable } from '../route-table.js';
import { ThrottledLog } from '../throttled-log.js';

/** Header values as received (names lower-case; repeated headers joined with ", "), for signature checks. */
function receivedHeaders(ctx: Context): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ctx.req.headersDistinct).map(([name, values]) => [name, (values ?? []).join(', ')]),
  );
}

const activityBody = z.object({ type: z.string(), actor: z.string() }).passthrough();
const inboxDoc = (
  summary: string,
  refusals: ErrorTable<Parameters<typeof INBOX_ERRORS.problem>[0]>,
  extra: RouteDoc['request'] = {},
): RouteDoc => ({
  summary,
  request: {
    ...extra,
    body: {
      description:
        'An activity HTTP-signed by its actor (draft-cavage rsa-sha256 or hs2019 covering (request-target), host, ' +
        'date and digest, or RFC 9421 with content-digest; Date within 5 minutes). Follow, Undo of a Follow and ' +
        'Delete of the actor are acted on; anything else is accepted and ignored. See docs/activitypub.md.',
      content: {
        'application/activity+json': { schema: activityBody },
        'application/ld+json': { schema: activityBody },
      },
    },
  },
  responses: { 202: { description: 'Accepted (acted on or ignored)' } },
  refusals: [INBOX_BODY_ERRORS, refusals],
});

export function inboxRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const { useCases } = deps;
  const refusalLog = new ThrottledLog(deps.logger);
  // The body middleware has read the exact bytes, whose digest the signature covers.
  const inbox = (owner: (ctx: Context) => string | null) => async (ctx: Context) => {
    const client = clientAddress(ctx);
    const received = await useCases.receiveActivity.execute({
      inboxOwner: owner(ctx),
      body: ctx.request.body,
      request: {
        method: ctx.method,
        target: ctx.originalUrl,
        headers: receivedHeaders(ctx),
        body: ctx.request.rawBytes ?? Buffer.alloc(0),
        clientAddress: client,
      },
    });
    if (!received.ok) {
      const { error } = received;
      const reason = refusalReason(error);
      if (reason !== null) {
        deps.metrics.inboxRefused(reason);
        refusalLog.warn(
          {
            reqId: ctx.state.requestId,
            client,
            reason,
            detail: 'message' in error ? error.message : undefined,
          },
          'inbox request refused',
        );
      }
      throw INBOX_ERRORS.problem(error);
    }
    ctx.status = 202;
    ctx.body = '';
  };
  routes.post(
    '/inbox',
    // No owner to be missing or gone.
    inboxDoc(
      'The shared inbox (ActivityPub)',
      INBOX_ERRORS.only('invalid_request', 'forbidden', 'unauthenticated', 'unavailable', 'rate_limited'),
    ),
    inbox(() => null),
  );
  routes.post(
    '/users/:username/inbox',
    inboxDoc("A user's inbox (ActivityPub)", INBOX_ERRORS, { params: userParam }),
    inbox((ctx) => String(ctx.params.username)),
  );
}
