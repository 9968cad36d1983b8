// The requests other servers make most — an L1 server's POST /auth/verify (or its RFC 7662 form, POST
// /oauth/introspect), a peer's webfinger lookup and its GET of an actor — answered straight from node:http in their
// common, successful form. Everything else, and every request of theirs that is not plainly that (another content
// type, a query, an error to report, a store that fails), goes to the Koa application. What they answer is
// answers.ts, which the Koa routes send too (README.md); they import nothing of Koa's (what both use is in shared/).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { UseCases } from '../../../application/use-cases.js';
import type { Urls } from '../../../domain/activity-streams.js';
import { USERNAME_RULE, type UserProfile } from '../../../domain/user.js';
import { logRequest } from '../access-log.js';
import { usernameFromResource } from '../shared/webfinger.js';
import { BODY_LIMIT_BYTES, mediaTypeOf, parseStrictJson, PRE_READ_BODY } from '../shared/request-body.js';
import type { L1ServerUrls } from '../shared/l1-server-urls.js';
import type { HttpMetrics, OutcomeMetrics } from '../shared/metrics.js';
import { negotiate } from '../shared/negotiate.js';
import { VerifyRequest } from '../shared/schemas.js';
import { securityHeaderList } from '../shared/security-headers.js';
import { requestIdOf } from '../request-id.js';
import type { ActorAnswers } from './answers.js';
import { acceptsGzip, type TlogAnswers } from './tlog-answers.js';
import { HOT_ROUTES, USER_REPRESENTATIONS, verifiedAnswer, webfingerAnswer, type Answer } from './answers.js';
import { verifyInput } from './verify-input.js';
import { activeAnswer, INACTIVE_ANSWER, INTROSPECTION_ROUTE } from './introspection-answer.js';
import { addressKey, requestIp } from '../shared/client-address.js';
import { clientCredentialsOf } from '../shared/client-credentials.js';
import { IntrospectionRequest } from '../shared/oauth-schemas.js';

/** The one path shape a hot actor request has: a lower-case username, no query. */
const USER_PATH = new RegExp(`^/users/(${USERNAME_RULE.pattern})$`);

export interface HotPathSettings {
  readonly publicUrl: string;
  readonly webfingerDomain: string;
  readonly https: boolean;
  /** Whether X-Forwarded-For names the client (as Koa's `proxy`): introspection and bundle builds count per address. */
  readonly trustProxy: boolean;
  /**
   * Outside production, whether the schema of an answer's route describes it (an answer it does not is Koa's to
   * send, and fail); null in production, which parses nothing here.
   */
  readonly describes: ((method: string, answer: Answer) => boolean) | null;
}

/**
 * A POST answered here: the body types it reads (as the Koa body parser reads them), and its answer to a body —
 * null, or a promise of null, when the Koa route is to answer it (from the same bytes).
 */
interface HotPost {
  readonly types: readonly string[];
  answer(req: IncomingMessage, type: string, text: string): Promise<Answer | null> | null;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

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
  private readonly security: string[];
  /** Requests answered here rather than by Koa (for /metrics-free checks that the hot paths are taken). */
  answered = 0;

  constructor(
    private readonly useCases: UseCases,
    private readonly urls: Urls,
    private readonly actors: ActorAnswers,
    private readonly settings: HotPathSettings,
    private readonly metrics: HttpMetrics,
    private readonly outcomes: OutcomeMetrics,
    private readonly logger: Logger,
    /** The normal form of the L1 server URLs verify is sent, remembered (shared with the Koa route). */
    private readonly l1ServerUrls: L1ServerUrls,
    /** The transparency log's answers (shared with its Koa routes). */
    private readonly tlog: TlogAnswers,
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
    if (req.method === 'POST') {
      if (url === HOT_ROUTES.verify) return this.post(req, res, koa, this.verification);
      return url === INTROSPECTION_ROUTE && this.post(req, res, koa, this.introspection);
    }
    if (req.method !== 'GET') return false;
    if (url.startsWith('/users/')) return this.actor(req, res, koa, url);
    if (url.startsWith('/.well-known/webfinger?')) return this.webfinger(req, res, koa, url);
    if (url.startsWith('/tlog/') && !url.includes('?')) return this.transparencyLog(req, res, koa, url);
    return false;
  }

  /**
   * The checkpoint and the tiles: monitors and witnesses poll them. A 404, a 503 or a bundle refused for now (429,
   * 503) is Koa's to explain.
   */
  private transparencyLog(
    req: IncomingMessage,
    res: ServerResponse,
    koa: RequestListener,
    url: string,
  ): boolean {
    let answer: () => Promise<Answer | null>;
    if (url === '/tlog/checkpoint') answer = () => this.tlog.checkpoint();
    else if (url.startsWith('/tlog/tile/'))
      answer = () =>
        this.tlog
          .resource(url, acceptsGzip(req.headers['accept-encoding']), () =>
            addressKey(requestIp(req, this.settings.trustProxy)),
          )
          .then((found) => (found.ok ? found.value : null));
    else return false;
    const started = performance.now();
    answer()
      .then(
        (made) => (made && this.described(req, made) ? this.send(req, res, started, made) : koa(req, res)),
        () => koa(req, res),
      )
      .catch((error: unknown) => this.failed(req, res, error));
    return true;
  }

  /** POST /auth/verify: a valid token in a well-formed body; every refusal is the Koa route's to explain (and count). */
  private readonly verification: HotPost = {
    types: [JSON_TYPE],
    answer: (_req, _type, text) => {
      const json = parseStrictJson(text);
      const input = json && VerifyRequest.safeParse(json.value);
      if (!input?.success) return null;
      return this.useCases.verifyToken.execute(verifyInput(input.data, this.l1ServerUrls)).then(
        (result) => {
          if (!result.ok) return null;
          this.outcomes.verified('valid');
          return verifiedAnswer(result.value.claims);
        },
        () => null,
      );
    },
  };

  /**
   * A token introspected: the same use-case as the route (which counts a token that does not verify against the
   * caller's address), the same answer, active or not. A refusal — such a token from an address whose budget is
   * spent, a request without a token, a store that fails — goes to Koa to be explained.
   */
  private readonly introspection: HotPost = {
    types: [JSON_TYPE, FORM_TYPE],
    answer: (req, type, text) => {
      const form = type === FORM_TYPE ? new URLSearchParams(text) : null;
      // A name given twice is Koa's to read (and a client named twice its to refuse).
      if (form && new Set(form.keys()).size !== [...form.keys()].length) return null;
      const fields = form ? Object.fromEntries(form) : parseStrictJson(text)?.value;
      const input = IntrospectionRequest.safeParse(fields);
      if (!input.success) return null;
      const clientAddress = addressKey(requestIp(req, this.settings.trustProxy));
      const { token, resource } = input.data;
      const client = clientCredentialsOf(fields as Record<string, unknown>, req.headers.authorization);
      return this.useCases.introspectToken
        .execute({ token, resource: resource ?? null, client, clientAddress })
        .then(
          (result) =>
            !result.ok ? null : result.value ? activeAnswer(result.value.claims) : INACTIVE_ANSWER,
          () => null,
        );
    },
  };

  /**
   * A hot POST: its body, read as Koa would read it (Content-Length within the limit, one of the route's types),
   * answered by the route, or handed to Koa with the bytes read when the route does not answer it.
   */
  private post(req: IncomingMessage, res: ServerResponse, koa: RequestListener, route: HotPost): boolean {
    const length = Number(req.headers['content-length']);
    const type = mediaTypeOf(req.headers['content-type'] ?? '');
    if (
      req.headers['transfer-encoding'] !== undefined ||
      !(length > 0 && length <= BODY_LIMIT_BYTES) ||
      !route.types.includes(type)
    )
      return false;
    const started = performance.now();
    readBody(req, length)
      .then(
        async (bytes) => {
          const pending = route.answer(req, type, bytes.toString('utf8'));
          const answer = pending && (await pending);
          if (answer && this.described(req, answer)) return this.send(req, res, started, answer);
          // Anything else is the Koa route's to answer, from the same bytes (the stream is spent).
          req[PRE_READ_BODY] = bytes;
          koa(req, res);
        },
        () => res.destroy(),
      )
      .catch((error: unknown) => this.failed(req, res, error));
    return true;
  }

  private actor(req: IncomingMessage, res: ServerResponse, koa: RequestListener, url: string): boolean {
    const name = USER_PATH.exec(url)?.[1];
    if (name === undefined || negotiate(req.headers.accept, USER_REPRESENTATIONS) !== 'ap') return false;
    return this.withActor(req, res, koa, name, (user) => this.actors.of(user));
  }

  private webfinger(req: IncomingMessage, res: ServerResponse, koa: RequestListener, url: string): boolean {
    const query = new URLSearchParams(url.slice('/.well-known/webfinger?'.length));
    const resource = query.get('resource');
    if (query.size !== 1 || resource === null || !resource.startsWith('acct:')) return false;
    const { webfingerDomain: domain, publicUrl } = this.settings;
    const name = usernameFromResource(resource, { domain, actorUrlPrefix: publicUrl });
    if (name === null || name === 'malformed') return false;
    return this.withActor(req, res, koa, name, (user) => webfingerAnswer(user.username, domain, this.urls));
  }

  /** Answers with the live account `name` names, or hands the request to Koa (which says why: 404, 410, 301). */
  private withActor(
    req: IncomingMessage,
    res: ServerResponse,
    koa: RequestListener,
    name: string,
    answer: (user: UserProfile) => Answer | Promise<Answer>,
  ): boolean {
    const started = performance.now();
    this.useCases.getPublicActor
      .execute(name)
      .then(
        (found) =>
          found.ok
            ? Promise.resolve(answer(found.value)).then(
                (made) => (this.described(req, made) ? this.send(req, res, started, made) : koa(req, res)),
                () => koa(req, res),
              )
            : koa(req, res),
        () => koa(req, res),
      )
      .catch((error: unknown) => this.failed(req, res, error));
    return true;
  }

  /** Whether `answer` may go out: always in production; elsewhere when its route's schema describes it. */
  private described(req: IncomingMessage, answer: Answer): boolean {
    return this.settings.describes === null || this.settings.describes(req.method ?? 'GET', answer);
  }

  /** A bug in a hot path: logged, and the connection closed (nothing half-written is left to look like an answer). */
  private failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    this.logger.error({ err: error, reqId: requestIdOf(req.headers['x-request-id']) }, 'hot path failed');
    res.destroy();
  }

  /** Writes a 200 answer with the headers every answer carries, then counts and logs it as Koa would. */
  private send(req: IncomingMessage, res: ServerResponse, started: number, answer: Answer): void {
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.writeHead(200, [
      'X-Request-Id',
      requestId,
      ...this.security,
      ...answer.headers.flat(),
      'Content-Type',
      answer.contentType,
      'Content-Length',
      String(Buffer.byteLength(answer.body)),
    ]);
    res.end(answer.body);
    this.answered++;
    const method = req.method ?? 'GET';
    const ms = performance.now() - started;
    this.metrics.record(method, answer.route, 200, ms / 1000);
    logRequest(this.logger, 200, ms, () => ({
      reqId: requestId,
      method,
      route: answer.route,
      target: req.url,
    }));
  }
}
