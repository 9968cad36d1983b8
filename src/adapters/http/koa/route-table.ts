import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/** How a JSON route is described in /openapi.json: zod-to-openapi's route config without method and path. */
export type RouteDoc = Omit<RouteConfig, 'method' | 'path'>;

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
  readonly doc: RouteDoc;
}

/** Koa's `/assets/:name` as OpenAPI's `/assets/{name}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]\w*)/g, '{$1}');

/**
 * Every route of the service, declared once with its description: the Koa router is built from it and so is the
 * OpenAPI document, so a JSON route cannot be served undocumented or documented unserved. Registered routes carry
 * their kind as the router layer's name ('json' or 'page'), which the OpenAPI test reads back.
 */
export class RouteTable {
  private readonly entries: Entry[] = [];

  get(path: string | RegExp, doc: RouteDoc | typeof PAGE, handler: Handler): void {
    this.entries.push({ method: 'get', path, doc, handler });
  }

  post(path: string, doc: RouteDoc | typeof PAGE, handler: Handler): void {
    this.entries.push({ method: 'post', path, doc, handler });
  }

  patch(path: string, doc: RouteDoc, handler: Handler): void {
    this.entries.push({ method: 'patch', path, doc, handler });
  }

  delete(path: string, doc: RouteDoc, handler: Handler): void {
    this.entries.push({ method: 'delete', path, doc, handler });
  }

  /** Registers every route, in the order declared (the first match wins, as in Koa). */
  registerOn(router: Router): void {
    for (const { method, path, doc, handler } of this.entries) {
      router.register(path, [method], handler, {
        name: doc === PAGE ? 'page' : 'json',
        pathAsRegExp: path instanceof RegExp,
      });
    }
  }

  documented(): DocumentedRoute[] {
    return this.entries.flatMap(({ method, path, doc }) =>
      doc === PAGE || typeof path !== 'string' ? [] : [{ method, path: openApiPath(path), doc }],
    );
  }
}
