// The three requests other servers make most — an L1 server's POST /auth/verify, a peer's webfinger lookup and its
// GET of an actor — answered straight from node:http in their common, successful form. Everything else, and every
// request of theirs that is not plainly that (another content type, a query, an error to report, a store that
// fails), goes to the Koa application, which answers it as always: the hot paths only ever give the answer the Koa
// route would give, with the same headers, metrics and log line, at a third of the cost (docs/performance.md).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { UseCases } from '../../application/use-cases.js';
import type { Urls } from '../../domain/activity-streams.js';
import { isActive, normaliseUsername, type UserProfile } from '../../domain/user.js';
import { actorDocument } from './koa/activitypub/actor-document.js';
import { JRD_CONTENT_TYPE, userJrd, usernameFromResource } from './koa/activitypub/webfinger.js';
import { BODY_LIMIT_BYTES, mediaTypeOf, parseStrictJson, PRE_READ_BODY } from './koa/body-middleware.js';
import type { OutcomeMetrics } from './koa/dependencies.js';
import type { HttpMetrics } from './koa/metrics.js';
import { negotiate, type Representation } from './koa/negotiate.js';
import { AP_CONTENT_TYPE } from './koa/respond.js';
import { VerifyRequest } from './koa/schemas.js';
import { securityHeaderList } from './koa/security-headers.js';
import { verifiedJson, verifyInput } from './koa/verify-representation.js';
import { logRequest } from './access-log.js';
import { requestIdOf } from './request-id.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** The representations GET /users/{u} offers, in its Koa route's order (ties go to the first). */
const USER_REPRESENTATIONS: readonly Representation[] = ['html', 'ap', 'json'];
const USER_PATH = /^\/users\/([a-z0-9_]{3,30})$/;
/** Actor documents kept serialised (about 1.3 KiB each). */
const REMEMBERED_ACTORS = 10_000;

export interface HotPathSettings {
  readonly publicUrl: string;
  readonly webfingerDomain: string;
  readonly https: boolean;
}

/** Header names and values in one flat list, as `writeHead` takes them. */
type Headers = string[];

/** Reads exactly the `length` bytes Content-Length announced. */
function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () =>
      size === length ? resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)) : reject(),
    );
    req.on('error', reject);
  });
}

export class HotPaths {
  private readonly security: Headers;
  /** Requests answered here rather than by Koa (for /metrics-free checks that the hot paths are taken). */
  answered = 0;
  /** Serialised actor documents by username, with the key they were made with. */
  private readonly actors = new Map<string, { publicKeyPem: string; text: string }>();

  constructor(
    private readonly useCases: UseCases,
    private readonly urls: Urls,
    private readonly settings: HotPathSettings,
    private readonly metrics: HttpMetrics,
    private readonly outcomes: OutcomeMetrics,
    private readonly logger: Logger,
  ) {
    this.security = securityHeaderList({ https: settings.https }).flat();
  }

  /** A request listener: the hot paths first, the Koa application (`koa`) for everything else. */
  listener(koa: RequestListener): RequestListener {
    return (req, res) => {
      if (!this.take(req, res, koa)) koa(req, res);
    };
  }

  /** Whether one of the hot paths takes the request (it then answers it, or hands it to `koa` itself). */
  private take(req: IncomingMessage, res: ServerResponse, koa: RequestListener): boolean {
    const url = req.url ?? '';
    if (req.method === 'POST') return url === '/auth/verify' && this.verify(req, res, koa);
    if (req.method !== 'GET') return false;
    if (url.startsWith('/users/')) return this.actor(req, res, koa, url);
    if (url.startsWith('/.well-known/webfinger?')) return this.webfinger(req, res, koa, url);
    return false;
  }

  private verify(req: IncomingMessage, res: ServerResponse, koa: RequestListener): boolean {
    const length = Number(req.headers['content-length']);
    if (
      req.headers['transfer-encoding'] !== undefined ||
      !(length > 0 && length <= BODY_LIMIT_BYTES) ||
      mediaTypeOf(req.headers['content-type'] ?? '') !== 'application/json'
    )
      return false;
    const started = performance.now();
    readBody(req, length)
      .then(
        async (bytes) => {
          // Anything but a valid token in a well-formed body is the Koa route's to answer, from the same bytes.
          const handOver = () => {
            req[PRE_READ_BODY] = bytes;
            koa(req, res);
          };
          const json = parseStrictJson(bytes.toString('utf8'));
          const input = json && VerifyRequest.safeParse(json.value);
          if (!input?.success) return handOver();
          const result = await this.useCases.verifyToken.execute(verifyInput(input.data)).catch(() => null);
          if (!result?.ok) return handOver();
          this.outcomes.verified('valid');
          this.answer(
            req,
            res,
            started,
            '/auth/verify',
            JSON_CONTENT_TYPE,
            verifiedJson(result.value.claims),
            ['Cache-Control', 'no-store'],
          );
        },
        () => res.destroy(),
      )
      .catch((error: unknown) => this.failed(req, res, error));
    return true;
  }

  private actor(req: IncomingMessage, res: ServerResponse, koa: RequestListener, url: string): boolean {
    const name = USER_PATH.exec(url)?.[1];
    if (name === undefined || negotiate(req.headers.accept, USER_REPRESENTATIONS) !== 'ap') return false;
    const started = performance.now();
    this.profileOf(name)
      .then(
        (user) => {
          if (!user) return koa(req, res);
          this.answer(req, res, started, '/users/:username', AP_CONTENT_TYPE, this.actorText(user), [
            'Vary',
            'Accept',
          ]);
        },
        () => koa(req, res),
      )
      .catch((error: unknown) => this.failed(req, res, error));
    return true;
  }

  private webfinger(req: IncomingMessage, res: ServerResponse, koa: RequestListener, url: string): boolean {
    const query = new URLSearchParams(url.slice('/.well-known/webfinger?'.length));
    const resource = query.get('resource');
    if (query.size !== 1 || resource === null || !resource.startsWith('acct:')) return false;
    const { webfingerDomain: domain, publicUrl } = this.settings;
    const name = usernameFromResource(resource, { domain, actorUrlPrefix: publicUrl });
    if (name === null || name === 'malformed') return false;
    const started = performance.now();
    this.profileOf(name)
      .then(
        (user) => {
          if (!user) return koa(req, res);
          this.answer(
            req,
            res,
            started,
            '/.well-known/webfinger',
            JRD_CONTENT_TYPE,
            userJrd(user.username, domain, this.urls),
            ['Access-Control-Allow-Origin', '*'],
          );
        },
        () => koa(req, res),
      )
      .catch((error: unknown) => this.failed(req, res, error));
    return true;
  }

  /**
   * The actor document of a live account, serialised once: it is made of what never changes (the name, the public
   * key, the registration time). The account is still read on every request, so a deletion is seen at once.
   */
  private actorText(user: UserProfile): string {
    let cached = this.actors.get(user.username);
    if (cached?.publicKeyPem !== user.publicKeyPem) {
      cached = { publicKeyPem: user.publicKeyPem, text: JSON.stringify(actorDocument(user, this.urls)) };
      if (this.actors.size >= REMEMBERED_ACTORS) this.actors.delete(this.actors.keys().next().value!);
      this.actors.set(user.username, cached);
    }
    return cached.text;
  }

  /** A bug in a hot path: logged, and the connection closed (nothing half-written is left to look like an answer). */
  private failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    this.logger.error({ err: error, reqId: requestIdOf(req.headers['x-request-id']) }, 'hot path failed');
    res.destroy();
  }

  /** An active account's profile; null for any other name (the Koa route says why: 404, 410, 301). */
  private async profileOf(name: string) {
    if (normaliseUsername(name).ok === false) return null;
    const user = await this.useCases.getUser.execute(name);
    return user && isActive(user) ? user : null;
  }

  /** Writes a 200 JSON answer with the headers every answer carries, then counts and logs it as Koa would. */
  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    route: string,
    contentType: string,
    body: object | string,
    headers: Headers,
  ): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.writeHead(200, [
      'X-Request-Id',
      requestId,
      ...this.security,
      ...headers,
      'Content-Type',
      contentType,
      'Content-Length',
      String(Buffer.byteLength(text)),
    ]);
    res.end(text);
    this.answered++;
    const method = req.method ?? 'GET';
    const ms = performance.now() - started;
    this.metrics.record(method, route, 200, ms / 1000);
    logRequest(this.logger, 200, ms, () => ({ reqId: requestId, method, route, target: req.url }));
  }
}
