// The transparency log (API.md §8): the latest checkpoint, the verifier key, tiles and entry bundles at their
// c2sp.org/tlog-tiles paths, and a tlog-proof of each activity. The answers are tlog-answers.ts (the hot paths send
// the same).
import type { Context } from 'koa';
import { z } from 'zod';
import type { HttpDependencies } from '../dependencies.js';
import { PROOF_ERRORS, TLOG_ERRORS } from '../errors/transparency-errors.js';
import type { RouteTable } from '../route-table.js';
import { acceptsGzip, OCTET_STREAM, TEXT_CONTENT_TYPE } from '../../hot-paths/tlog-answers.js';
import { clientAddress } from '../../shared/client-address.js';
import { sendAnswer } from '../respond.js';

const text = (description: string) => ({
  description,
  content: { [TEXT_CONTENT_TYPE]: { schema: z.string() } },
});

const TILE_GRAMMAR =
  'Hash tiles `tile/<L>/<N>[.p/<W>]` (L: level 0–63; N: the tile index in 3-digit groups, all but the last ' +
  'prefixed with `x` — 1234067 is `x001/x234/067`; `.p/<W>`: a partial tile of W = 1–255 hashes) and entry ' +
  'bundles `tile/entries/<N>[.p/<W>]` (each entry a big-endian uint16 length and the exact bytes of ' +
  '`GET /activities/{idx}` as ActivityStreams), exactly as c2sp.org/tlog-tiles defines them. Only what the latest ' +
  'checkpoint covers is served, each at one spelling (no leading zeros, no `x000` group, no `.p/256`), with ' +
  '`Cache-Control: public, max-age=31536000, immutable`; entry bundles are gzip-encoded when `Accept-Encoding` ' +
  'takes gzip (`Vary: Accept-Encoding`). An entry bundle is built from the store once and then kept; a read that ' +
  'needs a build while too many are under way — for the address, or in all — is refused with `429` or `503` and ' +
  '`Retry-After`.';

/** Bundle reads refused in a burst come by the thousand: one warning per this many ms says so, with the count. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

export function transparencyRoutes(routes: RouteTable, deps: HttpDependencies): void {
  const answers = deps.tlogAnswers;
  // Counted and logged here, where the refusal is answered (the hot path hands it to this route).
  let lastLogged = Number.NEGATIVE_INFINITY;
  const unlogged = { rate_limited: 0, busy: 0 };
  const refused = (type: 'rate_limited' | 'busy') => {
    deps.metrics.bundleRefused(type === 'busy' ? 'unavailable' : type);
    unlogged[type]++;
    const now = performance.now();
    if (now - lastLogged < REFUSAL_LOG_INTERVAL_MS) return;
    deps.logger.warn(
      { refusedPerAddress: unlogged.rate_limited, refusedInAll: unlogged.busy },
      'overloaded: entry bundle reads refused, too many bundles being built',
    );
    lastLogged = now;
    unlogged.rate_limited = unlogged.busy = 0;
  };

  routes.get(
    '/tlog/checkpoint',
    {
      summary: 'The latest signed checkpoint of the activity log (c2sp.org/tlog-checkpoint)',
      description:
        'Origin (PUBLIC_URL without its scheme, then `/tlog`), tree size and base64 root hash (RFC 6962), then a ' +
        'blank line and the Ed25519 signature line of c2sp.org/signed-note under the key `GET /tlog/key` serves. ' +
        '`Cache-Control: no-cache`. Every asset write is answered only once a checkpoint covering it is served.',
      responses: { 200: text('The signed checkpoint') },
      refusals: [TLOG_ERRORS.only('checkpoint_pending')],
    },
    async (ctx) => {
      const answer = await answers.checkpoint();
      if (answer === null) throw TLOG_ERRORS.problem({ type: 'checkpoint_pending' });
      sendAnswer(ctx, answer);
    },
  );

  routes.get(
    '/tlog/key',
    {
      summary: "The log's verifier key: `<origin>+<8 hex key id>+<base64(0x01 ‖ Ed25519 public key)>`",
      description: 'As golang.org/x/mod/sumdb/note and the C2SP tools read it (signed-note key format).',
      responses: { 200: text('The verifier key, one line') },
      refusals: [],
    },
    (ctx) => sendAnswer(ctx, answers.key()),
  );

  routes.get(
    '/tlog/tile/:level/*index',
    {
      summary: 'A tile or entry bundle of the log (c2sp.org/tlog-tiles)',
      description: TILE_GRAMMAR,
      request: {
        params: z.object({
          level: z.string().openapi({ description: 'Tile level 0–63, or `entries`', example: '0' }),
          index: z.string().openapi({
            description: 'The x-grouped index, then `.p/<W>` for a partial tile',
            example: 'x001/234.p/17',
          }),
        }),
      },
      responses: {
        200: {
          description: 'The tile (hashes back to back) or the entry bundle',
          content: { [OCTET_STREAM]: { schema: z.string().openapi({ format: 'binary' }) } },
        },
      },
      refusals: [TLOG_ERRORS.only('not_found', 'rate_limited', 'busy')],
    },
    async (ctx: Context) => {
      // The path as sent, not decoded: `%30%30%30` is not another spelling of `000`.
      const found = await answers.resource(ctx.path, acceptsGzip(ctx.get('Accept-Encoding')), () =>
        clientAddress(ctx),
      );
      if (!found.ok) {
        if (found.error.type !== 'not_found') refused(found.error.type);
        throw TLOG_ERRORS.problem(found.error);
      }
      sendAnswer(ctx, found.value);
    },
  );

  routes.get(
    '/activities/:idx/proof',
    {
      summary: 'An inclusion proof of the activity in the latest checkpoint (c2sp.org/tlog-proof@v1)',
      description:
        'The index, the RFC 6962 inclusion proof (one base64 hash per line, from the leaf up), a blank line and the ' +
        'latest signed checkpoint verbatim: with the exact bytes of `GET /activities/{idx}` (ActivityStreams) and ' +
        "the log's verifier key, it proves the activity is entry idx of the log, offline.",
      request: { params: z.object({ idx: z.string().openapi({ example: '0' }) }) },
      responses: { 200: text('The tlog-proof') },
      refusals: [PROOF_ERRORS],
    },
    async (ctx) => {
      const raw = String(ctx.params.idx);
      if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
        throw PROOF_ERRORS.problem({ type: 'invalid_request' });
      const answer = await answers.proof(Number(raw));
      if (answer === null) throw PROOF_ERRORS.problem({ type: 'not_found', idx: raw });
      sendAnswer(ctx, answer);
    },
  );
}
