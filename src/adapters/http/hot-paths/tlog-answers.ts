// The transparency log's answers (API.md §8), written once: the Koa routes and the hot paths send exactly these.
import type { UseCases } from '../../../application/use-cases.js';
import type { LogResourceError } from '../../../application/use-cases/transparency/get-log-resource.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { Answer } from './answers.js';

/** The route patterns the log's answers are counted under in /metrics. */
export const TLOG_ROUTES = {
  checkpoint: '/tlog/checkpoint',
  key: '/tlog/key',
  tile: '/tlog/tile/:level/*index',
  proof: '/activities/:idx/proof',
} as const;

export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';
export const OCTET_STREAM = 'application/octet-stream';
/** A tile's or bundle's bytes never change once served (the log never forks): caches may keep them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The checkpoint moves with every write: a cache must ask again each time (it may revalidate). */
const NO_CACHE = 'no-cache';

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export class TlogAnswers {
  constructor(private readonly useCases: UseCases) {}

  /** GET /tlog/checkpoint: the latest signed checkpoint; null before the first was signed. */
  async checkpoint(): Promise<Answer | null> {
    const latest = await this.useCases.getCheckpoint.execute();
    if (latest === null) return null;
    return {
      route: TLOG_ROUTES.checkpoint,
      contentType: TEXT_CONTENT_TYPE,
      headers: [['Cache-Control', NO_CACHE]],
      body: latest.note,
    };
  }

  /** GET /tlog/key: the verifier key, as sumdb/note and the C2SP tools read it. */
  key(): Answer {
    return {
      route: TLOG_ROUTES.key,
      contentType: TEXT_CONTENT_TYPE,
      headers: [],
      body: `${this.useCases.getVerifierKey.execute()}\n`,
    };
  }

  /**
   * GET /tlog/tile/…: the tile or entry bundle at `rawPath` (the request's path as sent, not decoded: a resource
   * has one spelling), entry bundles gzip-encoded when the client takes gzip; else not found, or a bundle to build
   * refused for now (`client` is the address the bound counts: asked only then).
   */
  async resource(
    rawPath: string,
    acceptsGzip: boolean,
    client: () => string,
  ): Promise<Result<Answer, LogResourceError>> {
    const path = rawPath.startsWith('/tlog/') ? rawPath.slice('/tlog/'.length) : null;
    if (path === null) return err({ type: 'not_found' });
    const found = await this.useCases.getLogResource.execute(path, { gzip: acceptsGzip, client });
    if (!found.ok) return found;
    const { kind, bytes, gzipped } = found.value;
    if (kind === 'tile')
      return ok({
        route: TLOG_ROUTES.tile,
        contentType: OCTET_STREAM,
        headers: [['Cache-Control', IMMUTABLE]],
        body: asBuffer(bytes),
      });
    return ok(this.bundle(asBuffer(bytes), gzipped));
  }

  /** An entry bundle's answer; its encoding depends on Accept-Encoding, so caches must key on it. */
  private bundle(body: Buffer, gzipped: boolean): Answer {
    return {
      route: TLOG_ROUTES.tile,
      contentType: OCTET_STREAM,
      headers: [
        ['Cache-Control', IMMUTABLE],
        ['Vary', 'Accept-Encoding'],
        ...(gzipped ? [['Content-Encoding', 'gzip'] as const] : []),
      ],
      body,
    };
  }

  /** GET /activities/{idx}/proof: a c2sp.org/tlog-proof@v1 in the latest checkpoint; null when not covered. */
  async proof(idx: number): Promise<Answer | null> {
    const text = await this.useCases.proveInclusion.execute(idx);
    if (text === null) return null;
    return {
      route: TLOG_ROUTES.proof,
      contentType: TEXT_CONTENT_TYPE,
      headers: [['Cache-Control', NO_CACHE]],
      body: text,
    };
  }
}

/**
 * Whether an Accept-Encoding header (RFC 9110 §12.5.3) takes gzip: `gzip` (or `x-gzip`) with a q-value above 0,
 * or, when it names neither, `*` with one.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(coding.trim().toLowerCase(), q === undefined ? 1 : Number(q));
  }
  const named = weights.get('gzip') ?? weights.get('x-gzip');
  return (named ?? weights.get('*') ?? 0) > 0;
}
