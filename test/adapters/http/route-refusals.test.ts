// A route documents exactly the refusals it can answer with. Each route declares them — the error tables it maps
// the core's errors through, the middleware's refusals — and the route table builds /openapi.json's error
// responses from that declaration alone, and reports any problem a route answers with that it does not declare
// (outside production as an error: every HTTP test and the fuzz then fail on it as a 500).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { Urls } from '../../../src/domain/activity-streams.js';
import type { HttpDependencies } from '../../../src/adapters/http/koa/dependencies.js';
import { ASSET_ERRORS } from '../../../src/adapters/http/koa/errors/registry-errors.js';
import { buildOpenApiDocument } from '../../../src/adapters/http/koa/openapi.js';
import { HttpProblem } from '../../../src/adapters/http/koa/problem.js';
import {
  RouteTable,
  type DocumentedRoute,
  type UndeclaredRefusal,
} from '../../../src/adapters/http/koa/route-table.js';
import { serviceRoutes } from '../../../src/adapters/http/koa/routes/service-routes.js';
import { client } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Each route's refusals ("409 asset_exists"), read from an OpenAPI document: statuses and their problem codes. */
function documentedRefusals(document: Json): Map<string, string[]> {
  const schemas = document.components.schemas as Record<string, Json>;
  // A problem names its codes in `code`; an OAuth endpoint's RFC 6749 JSON in `error`.
  const codesOf = (schema: Json, member: 'code' | 'error'): string[] => {
    if (schema?.$ref) return codesOf(schemas[String(schema.$ref).split('/').pop()!], member);
    if (schema?.allOf) return (schema.allOf as Json[]).flatMap((part) => codesOf(part, member));
    return (schema?.properties?.[member]?.enum as string[] | undefined) ?? [];
  };
  const routes = new Map<string, string[]>();
  for (const [path, operations] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(operations)) {
      const refusals = Object.entries<Json>(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([status, response]) => {
          const codes = [
            ...codesOf(response.content?.['application/problem+json']?.schema, 'code'),
            ...codesOf(response.content?.['application/json']?.schema, 'error'),
          ];
          return codes.length > 0 ? codes.map((code) => `${status} ${code}`) : [`${status} (no code)`];
        });
      routes.set(`${method.toUpperCase()} ${path}`, refusals.sort());
    }
  }
  return routes;
}

/** Each route's refusals as its route table declares them. */
function declaredRefusals(routes: readonly DocumentedRoute[]): Map<string, string[]> {
  return new Map(
    routes.map(({ method, path, answers }) => [
      `${method.toUpperCase()} ${path}`,
      [...new Set(answers.map(({ status, code }) => `${status} ${code}`))].sort(),
    ]),
  );
}

/** Where the documented and the declared refusals differ, route by route. */
function differences(documented: Map<string, string[]>, declared: Map<string, string[]>): string[] {
  const routes = [...new Set([...documented.keys(), ...declared.keys()])].sort();
  return routes.flatMap((route) => {
    const shown = documented.get(route) ?? [];
    const mapped = declared.get(route) ?? [];
    return [
      ...shown
        .filter((r) => !mapped.includes(r))
        .map((r) => `${route} documents ${r}, which it does not declare`),
      ...mapped
        .filter((r) => !shown.includes(r))
        .map((r) => `${route} declares ${r}, which it does not document`),
    ];
  });
}

/** The service's route table, declared as the application declares it (declarations read no dependency). */
function serviceRouteTable(): DocumentedRoute[] {
  const deps = {
    settings: { publicUrl: 'http://l2.test', webfingerDomain: 'l2.test', version: 'test' },
    urls: Urls.of('http://l2.test'),
    logger: pino({ level: 'silent' }),
  } as unknown as HttpDependencies;
  return serviceRoutes(new RouteTable(), deps, new Registry()).documented();
}

describe('route refusals', () => {
  let l2: TestServer;
  before(async () => (l2 = await startTestServer({ background: false })));
  after(async () => l2.close());

  it('documents, on every route of the served /openapi.json, exactly the refusals the route declares', async () => {
    const served = (await client(l2.url).get('/openapi.json')).json;
    const declared = declaredRefusals(serviceRouteTable());
    expect(declared.size).to.be.greaterThan(30);
    expect(differences(documentedRefusals(served), declared)).to.deep.equal([]);
    // A sample, to see the comparison read what it should.
    expect(declared.get('PATCH /assets/{name}')).to.include.members([
      '403 forbidden',
      '403 csrf_failed',
      '410 gone',
    ]);
    expect(declared.get('POST /inbox')).to.not.include('404 not_found');
    expect(declared.get('POST /users/{username}/inbox')).to.include('404 not_found');
  });

  it('finds a route that documents a refusal it does not declare, or declares one it does not document', () => {
    const routes = serviceRouteTable();
    const document: Json = buildOpenApiDocument(routes, 'http://l2.test', 'test');
    const patch = document.paths['/assets/{name}'].patch.responses;
    // Deliberately wrong: a 409 written into PATCH's document, the 410 taken out of it.
    patch['409'] = document.paths['/assets'].post.responses['409'];
    delete patch['410'];
    expect(differences(documentedRefusals(document), declaredRefusals(routes))).to.deep.equal([
      'PATCH /assets/{name} documents 409 asset_exists, which it does not declare',
      'PATCH /assets/{name} declares 410 gone, which it does not document',
    ]);
  });

  it('refuses a route that documents a refusal by hand instead of declaring it', () => {
    const table = new RouteTable();
    const byHand = { description: 'asset_exists', content: {} };
    expect(() =>
      table.post(
        '/things',
        { summary: 'x', responses: { 201: byHand, 409: byHand }, refusals: [] },
        () => {},
      ),
    ).to.throw('POST /things: refusals are documented from `refusals`, not by hand (409)');
  });

  describe('a route answering with a refusal it does not declare', () => {
    let server: Server;
    let url: string;
    const reported: UndeclaredRefusal[] = [];
    let strict = false;

    before(async () => {
      // Deliberately wrong: GET /things/:name declares only not_found, and answers gone too.
      const table = new RouteTable({
        onUndeclared: (refusal) => {
          reported.push(refusal);
          if (strict) throw new Error('undeclared');
        },
      });
      table.get(
        '/things/:name',
        {
          summary: 'x',
          responses: { 200: { description: 'A thing' } },
          refusals: [ASSET_ERRORS.only('not_found')],
        },
        (ctx) => {
          const name = String(ctx.params.name);
          throw ASSET_ERRORS.problem({ type: name === 'missing' ? 'not_found' : 'gone' }, { name });
        },
      );
      const router = new Router();
      table.registerOn(router);
      const app = new Koa();
      app.silent = true;
      app.use(async (ctx, next) => {
        try {
          await next();
        } catch (error) {
          ctx.status = error instanceof HttpProblem ? error.status : 500;
          ctx.body = error instanceof HttpProblem ? error.code : 'internal_error';
        }
      });
      app.use(router.routes());
      server = createServer(app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => server.close());
    beforeEach(() => (reported.length = 0));

    it('is reported, and its refusal answered unchanged (as in production)', async () => {
      strict = false;
      expect((await fetch(`${url}/things/missing`)).status).to.equal(404);
      expect(reported).to.deep.equal([]);
      const answer = await fetch(`${url}/things/old`);
      expect([answer.status, await answer.text()]).to.deep.equal([410, 'gone']);
      expect(
        reported.map(({ route, problem }) => `${route} ${problem.status} ${problem.code}`),
      ).to.deep.equal(['GET /things/:name 410 gone']);
    });

    it('fails the request when strict (as outside production), so that a test meets it', async () => {
      strict = true;
      expect((await fetch(`${url}/things/missing`)).status).to.equal(404);
      expect((await fetch(`${url}/things/old`)).status).to.equal(500);
    });
  });
});
