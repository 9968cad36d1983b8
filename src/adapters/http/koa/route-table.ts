import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Answer, Refusals } from './errors/error-table.js';
import { errorResponses } from './openapi-docs.js';
import { HttpProblem } from './problem.js';
import { isJsonMediaType, undescribed } from './success-check.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * How a JSON route is described in /openapi.json: zod-to-openapi's route config without method and path, its
 * `responses` holding successes and redirects only, and `refusals` naming every refusal it answers with — the
 * error tables it maps the core's errors through and the refusals of the middleware in front of it.
 */
export type RouteDoc = Omit<RouteConfig, 'method' | 'path'> & { readonly refusals: readonly Refusals[] };

/** A route that serves only a page, a redirect, or a form's method override: not part of the JSON API. */
export const PAGE = 'page' as const;

type Handler = (ctx: Context, next: Next) => unknown;

interface Entry {
  readonly method: Method;
  readonly path: string | RegExp;
  readonly doc: RouteDoc | typeof PAGE;
  readonly handler: Handler;
}

/** A documented route, with its path in OpenAPI form (`/assets/{name}`). */
export interface DocumentedRoute {
  readonly method: Method;
  readonly path: string;
  /** Its OpenAPI operation, refusals included (one response per status, listing the codes). */
  readonly doc: Omit<RouteConfig, 'method' | 'path'>;
  /** The refusals it declares: what `doc` documents, and all it may answer with. */
  readonly answers: readonly Answer[];
}

/** A problem a JSON route answered with but does not declare: a bug, which `onUndeclared` reports. */
export interface UndeclaredRefusal {
  readonly route: string;
  readonly problem: HttpProblem;
}

/** A JSON success body its route does not describe (see success-check.ts): a bug, which `onUndescribed` reports. */
export interface UndescribedSuccess {
  readonly route: string;
  readonly status: number;
  readonly mediaType: string;
  /** What is wrong with it: the fields missing or of another type, those not declared, an undeclared status. */
  readonly issue: string;
}

/** What the route table tells of answers that do not match their route's description. */
export interface AnswerChecks {
  /** A refusal a JSON route answered with but does not declare (it may throw, to fail the request). */
  readonly onUndeclared?: (refusal: UndeclaredRefusal) => void;
  /**
   * A JSON success body its route's schema does not describe (it may throw, to fail the request). Without it,
   * success bodies are not parsed at all, as in production: parsing each would cost a second serialisation.
   */
  readonly onUndescribed?: (success: UndescribedSuccess) => void;
}

/** Koa's `/assets/:name` (and a wildcard's `*name`) as OpenAPI's `/assets/{name}`. */
export const openApiPath = (path: string): string => path.replace(/[:*]([A-Za-z_]\w*)/g, '{$1}');

/** A refusal's status and code, as a route declares and answers it. */
const answerKey = (answer: { readonly status: number; readonly code: string }) =>
  `${answer.status} ${answer.code}`;

/**
 * Every route of the service, declared once with its description: the Koa router is built from it and so is the
 * OpenAPI document, so a JSON route cannot be served undocumented or documented unserved. Its refusals are
 * documented from what it declares, and a problem it answers with that it does not declare goes to `onUndeclared`
 * (which may replace it): a route cannot document a refusal by hand, nor answer with one it does not document.
 * With `onUndescribed`, each JSON success body is parsed against the schema its route declares for the status and
 * media type, and one that schema does not describe exactly goes there.
 * Registered routes carry their kind as the router layer's name ('json' or 'page'), which the OpenAPI test reads
 * back.
 */
export class RouteTable {
  private readonly entries: Entry[] = [];

  constructor(private readonly checks: AnswerChecks = {}) {}

  get(path: string | RegExp, doc: RouteDoc | typeof PAGE, handler: Handler): void {
    this.add({ method: 'get', path, doc, handler });
  }

  post(path: string, doc: RouteDoc | typeof PAGE, handler: Handler): void {
    this.add({ method: 'post', path, doc, handler });
  }

  patch(path: string, doc: RouteDoc, handler: Handler): void {
    this.add({ method: 'patch', path, doc, handler });
  }

  delete(path: string, doc: RouteDoc, handler: Handler): void {
    this.add({ method: 'delete', path, doc, handler });
  }

  /** Registers every route, in the order declared (the first match wins, as in Koa). */
  registerOn(router: Router): void {
    for (const { method, path, doc, handler } of this.entries) {
      router.register(path, [method], doc === PAGE ? handler : this.guarded(method, path, doc, handler), {
        name: doc === PAGE ? 'page' : 'json',
        pathAsRegExp: path instanceof RegExp,
      });
    }
  }

  documented(): DocumentedRoute[] {
    return this.entries.flatMap(({ method, path, doc }) => {
      if (doc === PAGE || typeof path !== 'string') return [];
      const { refusals, ...operation } = doc;
      const answers = refusals.flatMap((declared) => declared.answers);
      const responses = { ...operation.responses, ...errorResponses(answers) };
      return [{ method, path: openApiPath(path), doc: { ...operation, responses }, answers }];
    });
  }

  /**
   * Whether the schema `route` (its pattern, as /metrics names it) declares for `status` and `mediaType` describes
   * `body`, for a front end that answers the route without Koa (the hot paths); always true when success bodies are
   * not checked, or when the body is not JSON. Reports nothing: an answer it refuses is Koa's to send, and report.
   */
  describes(method: string, route: string, status: number, mediaType: string, body: unknown): boolean {
    if (!this.checks.onUndescribed || !isJsonMediaType(mediaType)) return true;
    const entry = this.entries.find((e) => e.method === method.toLowerCase() && e.path === route);
    return (
      entry !== undefined &&
      entry.doc !== PAGE &&
      undescribed(entry.doc.responses, status, mediaType, body) === null
    );
  }

  private add(entry: Entry): void {
    const { doc } = entry;
    const byHand = doc === PAGE ? [] : Object.keys(doc.responses).filter((status) => Number(status) >= 400);
    if (byHand.length > 0) {
      throw new Error(
        `${entry.method.toUpperCase()} ${String(entry.path)}: refusals are documented from \`refusals\`, not ` +
          `by hand (${byHand.join(', ')})`,
      );
    }
    this.entries.push(entry);
  }

  /**
   * The handler, reporting any problem it answers with that the route does not declare, and (with
   * `onUndescribed`) any JSON success body the route's schema does not describe.
   */
  private guarded(method: Method, path: string | RegExp, doc: RouteDoc, handler: Handler): Handler {
    const declared = new Set(doc.refusals.flatMap((refusals) => refusals.answers.map(answerKey)));
    const route = `${method.toUpperCase()} ${String(path)}`;
    const { onUndeclared, onUndescribed } = this.checks;
    return async (ctx, next) => {
      let answered: unknown;
      try {
        answered = await handler(ctx, next);
      } catch (error) {
        if (error instanceof HttpProblem && !declared.has(answerKey(error)))
          onUndeclared?.({ route, problem: error });
        throw error;
      }
      const { status } = ctx;
      const mediaType = ctx.response.type;
      if (onUndescribed && status >= 200 && status < 300 && isJsonMediaType(mediaType)) {
        const issue = undescribed(doc.responses, status, mediaType, ctx.body);
        if (issue !== null) onUndescribed({ route, status, mediaType, issue });
      }
      return answered;
    };
  }
}
