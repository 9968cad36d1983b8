// A route's success body is what its zod schema — the one /openapi.json publishes — describes. Each JSON success
// answer is built by one presenter typed by that schema; outside production the route table also parses every
// JSON success body against the schema declared for its route, status and media type, and a body it does not
// describe exactly (a field missing or of another type, a field it does not declare, a status or media type not
// declared) fails the request with a 500, so that every HTTP test and the fuzz meet it. The hot paths' answers are
// checked against the same declarations, and one that is not described is handed to Koa, whose check fails it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import { z } from 'zod';
import { Urls } from '../../../src/domain/activity-streams.js';
import { json } from '../../../src/adapters/http/koa/openapi-docs.js';
import { RouteTable, type UndescribedSuccess } from '../../../src/adapters/http/koa/route-table.js';
import type { Presented } from '../../../src/adapters/http/shared/presenters/presented.js';
import type { VerifyResponse } from '../../../src/adapters/http/shared/schemas.js';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { PASSWORD, startServer } from './helpers.js';

const Thing = z.object({ name: z.string(), size: z.number().int() });
const Page = z.object({ items: z.array(Thing) }).loose();

// A presenter's type is its answer's schema: one that lacks a field, adds one or gets one's type wrong does not compile
// (`npm run typecheck` checks these lines; each would compile without its @ts-expect-error only if the rule broke).
const verified = {
  valid: true,
  username: 'alice',
  l2_server: 'http://l2.test',
  l1_server: null,
  amr: [],
} as const;
export const presenters = [
  (): Presented<typeof VerifyResponse> => ({ ...verified, expires_at: '2026-11-22T10:00:00.000Z' }),
  // @ts-expect-error expires_at is missing
  (): Presented<typeof VerifyResponse> => ({ ...verified }),
  // @ts-expect-error valid is `true`, and only that
  (): Presented<typeof VerifyResponse> => ({ ...verified, valid: false, expires_at: '' }),
  (): Presented<typeof VerifyResponse> => ({
    ...verified,
    expires_at: '',
    // @ts-expect-error a field the schema does not declare
    secret: 'x',
  }),
];

describe('route successes', () => {
  describe('a route answering with a success body its schema does not describe', () => {
    let server: Server;
    let url: string;
    let table: RouteTable;
    const reported: UndescribedSuccess[] = [];
    let strict = false;

    /** What each route of the table answers, set by the test. */
    let answer: (ctx: Koa.Context) => void = () => {};

    before(async () => {
      table = new RouteTable({
        onUndescribed: (undescribed) => {
          reported.push(undescribed);
          if (strict) throw new Error('undescribed');
        },
      });
      const doc = {
        summary: 'x',
        responses: { 200: json(Thing, 'A thing'), 201: json(Page, 'Some things') },
        refusals: [],
      };
      table.get('/things', doc, (ctx) => answer(ctx));
      const router = new Router();
      table.registerOn(router);
      const app = new Koa();
      app.silent = true;
      app.use(async (ctx, next) => {
        try {
          await next();
        } catch {
          ctx.status = 500;
          ctx.body = 'internal_error';
        }
      });
      app.use(router.routes());
      server = createServer(app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => server.close());
    beforeEach(() => {
      reported.length = 0;
      strict = false;
    });

    /** What the route answers with `body` (and `status`, `type`), and what the table reported. */
    async function answered(body: unknown, options: { status?: number; type?: string } = {}) {
      reported.length = 0;
      answer = (ctx) => {
        ctx.body = body;
        if (options.status) ctx.status = options.status;
        if (options.type) ctx.type = options.type;
      };
      const response = await fetch(`${url}/things`);
      return {
        status: response.status,
        body: await response.text(),
        reported: reported.map(({ route, status, mediaType }) => `${route} ${status} ${mediaType}`),
        issues: reported.map(({ issue }) => issue),
      };
    }

    it('lets a body its schema describes go out unreported', async () => {
      expect(await answered({ name: 'a', size: 1 })).to.deep.include({ status: 200, reported: [] });
      // As the front ends share them: a serialised answer with its content type.
      const text = JSON.stringify({ name: 'a', size: 1 });
      expect(await answered(text, { type: 'application/json; charset=utf-8' })).to.deep.include({
        status: 200,
        reported: [],
      });
      // A loose object (as ActivityStreams documents are described) takes fields it does not name.
      expect(await answered({ items: [], next: 'x' }, { status: 201 })).to.deep.include({
        status: 201,
        reported: [],
      });
      // Only JSON is checked: a page is the templates' business.
      expect(await answered('<p>hi</p>', { type: 'text/html' })).to.deep.include({
        status: 200,
        reported: [],
      });
    });

    it('reports a body that lacks a field, has one of another type, or one its schema does not declare', async () => {
      for (const body of [
        { name: 'a' },
        { name: 'a', size: '1' },
        { name: 'a', size: 1, secret: 'x' },
        { items: [{ name: 'a', size: 1.5 }] },
      ]) {
        const seen = await answered(body);
        expect(seen.status, JSON.stringify(body)).to.equal(200);
        expect(seen.reported, JSON.stringify(body)).to.deep.equal(['GET /things 200 application/json']);
      }
      expect((await answered({ name: 'a', size: 1, secret: 'x' })).issues[0]).to.include('secret');
    });

    it('reports a status, or a JSON media type, the route does not declare', async () => {
      expect((await answered({ name: 'a', size: 1 }, { status: 202 })).reported).to.deep.equal([
        'GET /things 202 application/json',
      ]);
      expect(
        (await answered({ name: 'a', size: 1 }, { type: 'application/activity+json' })).reported,
      ).to.deep.equal(['GET /things 200 application/activity+json']);
      expect((await answered('{"name": ', { type: 'application/json' })).reported).to.deep.equal([
        'GET /things 200 application/json',
      ]);
    });

    it('fails the request when strict (as outside production), so that a test meets it', async () => {
      strict = true;
      expect((await answered({ name: 'a', size: 1 })).status).to.equal(200);
      expect(await answered({ name: 'a', size: 'big' })).to.deep.include({
        status: 500,
        body: 'internal_error',
      });
    });

    it('tells another front end (the hot paths) whether an answer of one of its routes is described', () => {
      const text = JSON.stringify({ name: 'a', size: 1 });
      expect(table.describes('GET', '/things', 200, 'application/json', text)).to.equal(true);
      expect(table.describes('GET', '/things', 200, 'application/json', '{"name":"a"}')).to.equal(false);
      expect(table.describes('POST', '/things', 200, 'application/json', text)).to.equal(false);
      expect(table.describes('GET', '/things', 200, 'text/plain', 'hi')).to.equal(true);
      // Not reported here: a hot path hands such an answer to Koa, whose route reports it.
      expect(reported).to.deep.equal([]);
    });

    it('parses nothing when nothing is told of undescribed bodies (as in production)', async () => {
      const lenient = new RouteTable();
      lenient.get(
        '/things',
        { summary: 'x', responses: { 200: json(Thing, 'A thing') }, refusals: [] },
        () => {},
      );
      expect(lenient.describes('GET', '/things', 200, 'application/json', '{"size": "big"}')).to.equal(true);
    });
  });

  describe('the service', () => {
    let l2: TestServer;
    // Deliberately wrong: the actor URL of one user is not a URL, which every schema naming an actor refuses.
    class OddUrls extends Urls {
      override actor = (username: string) =>
        username === 'odd' ? 'not a url' : `${this.base}/users/${username}`;
    }
    before(async () => {
      l2 = await startServer('memory', { override: { urls: (p) => new OddUrls(p.config.publicAddress) } });
      await registerUser(l2.url, 'alice', PASSWORD);
      const odd = await l2.parts.useCases.registerUser.execute({
        username: 'odd',
        password: PASSWORD,
        clientAddress: '127.0.0.1',
      });
      expect(odd.ok).to.equal(true);
    });
    after(async () => l2?.close());

    it('fails a real route whose answer its schema does not describe, outside production', async () => {
      const api = client(l2.url);
      const accept = { headers: { accept: 'application/json' } };
      expect((await api.get('/users/alice', accept)).status).to.equal(200);
      const odd = await api.get('/users/odd', accept);
      expect(odd.status).to.equal(500);
      expect(odd.json.code).to.equal('internal_error');
    });

    it("checks a hot path's answer too: one its schema does not describe is Koa's to answer, and fail", async () => {
      const webfinger = (user: string) => `/.well-known/webfinger?resource=acct:${user}@l2.test`;
      const before = l2.l2.hotPathAnswers();
      expect((await client(l2.url).get(webfinger('alice'))).status).to.equal(200);
      expect(l2.l2.hotPathAnswers()).to.equal(before + 1);
      expect((await client(l2.url).get(webfinger('odd'))).status).to.equal(500);
      expect(l2.l2.hotPathAnswers()).to.equal(before + 1);
    });
  });
});
