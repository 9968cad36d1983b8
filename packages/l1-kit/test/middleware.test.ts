import { expect } from 'chai';
import express from 'express';
import Koa from 'koa';

import Fastify, { type FastifyReply } from 'fastify';
import { createServer, type RequestListener } from 'node:http';
import {
  bearerToken,
  createL1Kit,
  errorResponse,
  type AuthResult,
  type L1Kit,
  type LogoutNotice,
  type SignInResult,
} from '../src/index.js';
import * as forExpress from '../src/adapters/express.js';
import * as forKoa from '../src/adapters/koa.js';
import * as forNode from '../src/adapters/node.js';
import { StandInL2, TestClock } from './support/stand-in-l2.js';
import { TestServer } from './support/servers.js';

/** One L1 app per framework: the kit's routes, a public route and a protected one that counts its calls. */
interface App {
  handler: RequestListener;
  /** How many times the protected route's own handler ran. */
  calls: () => number;
}
type Hooks = { onLogout: (notice: LogoutNotice) => void; onSignIn: (result: SignInResult) => void };

const frameworks: Record<string, (kit: L1Kit, hooks: Hooks) => App | Promise<App>> = {
  'Express (body read by the kit)': (kit, hooks) => expressApp(kit, hooks, false),
  'Express (after express.json())': (kit, hooks) => expressApp(kit, hooks, true),
  Koa: (kit, hooks) => {
    let calls = 0;
    const app = new Koa();
    app.use(
      forKoa.routes(kit, {
        onLogout: hooks.onLogout,
        onSignIn: (result, ctx: Koa.Context) => {
          hooks.onSignIn(result);
          ctx.cookies.set('session', 'koa', { sameSite: 'lax' });
        },
      }),
    );
    app.use(async (ctx, next) => {
      if (ctx.path === '/public') ctx.body = { public: true };
      else await next();
    });
    app.use(forKoa.protect(kit));
    app.use((ctx) => {
      calls++;
      const { l2 } = ctx.state as { l2: forExpress.ExpressRequest['l2'] };
      ctx.body = { username: l2!.user.username };
    });
    return { handler: app.callback(), calls: () => calls };
  },
  // Fastify through the core, as the README shows it (no adapter needed).
  Fastify: async (kit, hooks) => {
    let calls = 0;
    let handler: RequestListener = () => {};
    const app = Fastify({
      serverFactory: (fastifyHandler) => {
        handler = fastifyHandler;
        return createServer();
      },
    });
    const kitRoutes = kit.routes<FastifyReply>({
      onLogout: hooks.onLogout,
      onSignIn: (result, reply) => {
        hooks.onSignIn(result);
        reply.header('set-cookie', 'session=fastify; Path=/');
      },
    });
    app.route({
      method: ['GET', 'POST'],
      url: '/auth/*',
      handler: async (req, reply) => {
        const request = {
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: async () => req.body,
        };
        const answer = await kitRoutes(request, reply);
        if (!answer) return reply.code(404).send();
        return reply.code(answer.status).headers(answer.headers).send(answer.body);
      },
    });
    app.get('/public', async () => ({ public: true }));
    const users = new WeakMap<object, AuthResult>();
    app.get(
      '/api/me',
      {
        preHandler: async (req, reply) => {
          try {
            users.set(req, await kit.authenticate(bearerToken(req.headers.authorization)));
          } catch (error) {
            const answer = errorResponse(error);
            return reply.code(answer.status).headers(answer.headers).send(answer.body);
          }
        },
      },
      async (req) => {
        calls++;
        return { username: users.get(req)!.user.username };
      },
    );
    await app.ready();
    return { handler, calls: () => calls };
  },
  'node:http': (kit, hooks) => {
    let calls = 0;
    const kitRoutes = forNode.routes(kit, {
      onLogout: hooks.onLogout,
      onSignIn: (result, { res }) => {
        hooks.onSignIn(result);
        res.setHeader('Set-Cookie', 'session=node; Path=/');
      },
    });
    const me = forNode.protect(kit, (_req, res, auth) => {
      calls++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ username: auth.user.username }));
    });
    return {
      handler: (req, res) =>
        void (async () => {
          if (await kitRoutes(req, res)) return;
          if (req.url === '/public') return void res.end(JSON.stringify({ public: true }));
          await me(req, res);
        })(),
      calls: () => calls,
    };
  },
};

function expressApp(kit: L1Kit, hooks: Hooks, parseJson: boolean): App {
  let calls = 0;
  const app = express();
  if (parseJson) app.use(express.json());
  app.use(
    forExpress.routes(kit, {
      onLogout: hooks.onLogout,
      onSignIn: (result, { res }) => {
        hooks.onSignIn(result);
        res.cookie('session', 'express');
      },
    }),
  );
  app.get('/public', (_req, res) => void res.json({ public: true }));
  app.get('/api/me', forExpress.protect(kit), (req, res) => {
    calls++;
    res.json({ username: req.l2!.user.username });
  });
  return { handler: app, calls: () => calls };
}

for (const [name, build] of Object.entries(frameworks)) {
  describe(`l1-kit middleware: ${name}`, () => {
    let clock: TestClock;
    let l2: StandInL2;
    let l1: TestServer;
    let app: App;
    let notices: LogoutNotice[];
    let signIns: SignInResult[];
    let hooks: Hooks;

    beforeEach(async () => {
      clock = new TestClock();
      l2 = await new StandInL2({ now: clock.now }).start();
      l1 = await new TestServer().start();
      notices = [];
      signIns = [];
      const kit = createL1Kit({ l2: l2.url, self: l1.url, now: clock.now });
      hooks = {
        onLogout: (notice) => void notices.push(notice),
        onSignIn: (result) => void signIns.push(result),
      };
      app = await build(kit, hooks);
      l1.handler = app.handler;
    });
    afterEach(async () => {
      await l1.stop();
      await l2.stop();
    });

    const me = (token?: string) =>
      fetch(`${l1.url}/api/me`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

    it('lets a request with a token L2 accepts through, with the user', async () => {
      const response = await me(await l2.issue('alice', { l1: l1.url }));
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ username: 'alice' });
      expect(app.calls()).to.equal(1);
    });

    it('answers 401 with a bare Bearer challenge when there is no token, without calling the handler', async () => {
      const response = await me();
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(`Bearer realm="${l1.url}"`);
      expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(await response.json()).to.deep.include({ status: 401, code: 'unauthenticated' });
      expect(app.calls()).to.equal(0);
    });

    it('answers 401 token_revoked with an invalid_token challenge for a revoked token', async () => {
      const token = await l2.issue('alice', { l1: l1.url });
      l2.revoke(token);
      const response = await me(token);
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.match(
        /^Bearer realm="[^"]+", error="invalid_token"/,
      );
      expect(await response.json()).to.deep.include({ status: 401, code: 'token_revoked' });
      expect(app.calls()).to.equal(0);
    });

    it('answers 503 with Retry-After when L2 answers 503, and never calls the handler', async () => {
      const token = await l2.issue('alice', { l1: l1.url });
      l2.verifyMode = 'unavailable';
      l2.retryAfter = '7';
      const response = await me(token);
      expect(response.status).to.equal(503);
      expect(response.headers.get('retry-after')).to.equal('7');
      expect(await response.json()).to.deep.include({ status: 503, code: 'unavailable' });
      expect(app.calls()).to.equal(0);
    });

    it('answers 503 when L2 does not answer at all, and never calls the handler', async () => {
      // A short deadline only here, where the deadline is what is tested; the default (5 s) elsewhere.
      app = await build(createL1Kit({ l2: l2.url, self: l1.url, now: clock.now, timeoutMs: 200 }), hooks);
      l1.handler = app.handler;
      const token = await l2.issue('alice', { l1: l1.url });
      l2.verifyMode = 'hang';
      const response = await me(token);
      expect(response.status).to.equal(503);
      expect(await response.json()).to.deep.include({ code: 'unavailable' });
      expect(app.calls()).to.equal(0);
    });

    it('answers 503 when L2 is down, and never calls the handler', async () => {
      const token = await l2.issue('alice', { l1: l1.url });
      await l2.stop();
      const response = await me(token);
      expect(response.status).to.equal(503);
      expect(app.calls()).to.equal(0);
    });

    it("serves the notice route, and leaves the application's other routes alone", async () => {
      const token = await l2.issue('alice', { l1: l1.url });
      const delivery = await l2.revokeAndNotify(token);
      expect(delivery.status).to.equal(204);
      expect(notices.map((n) => n.username)).to.deep.equal(['alice']);
      const open = await fetch(`${l1.url}/public`);
      expect(await open.json()).to.deep.equal({ public: true });
      expect((await fetch(`${l1.url}/auth/revoke`)).status).to.not.equal(204); // GET is not the notice route
    });

    it('runs "Sign in with L2": the app sets its session cookie, the kit clears its own and answers 303', async () => {
      const start = await fetch(`${l1.url}/auth/login?returnTo=/home`, { redirect: 'manual' });
      expect(start.status).to.equal(303);
      const cookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
      const atL2 = await fetch(start.headers.get('location')!, { redirect: 'manual' });
      const done = await fetch(atL2.headers.get('location')!, { redirect: 'manual', headers: { cookie } });
      expect(done.status).to.equal(303);
      expect(done.headers.get('location')).to.equal('/home');
      const cookies = done.headers.getSetCookie().map((c) => c.split(';')[0]);
      expect(cookies).to.have.length(2);
      expect(cookies).to.include('l1kit_signin=');
      expect(cookies.some((c) => /^session=\w+$/.test(c!))).to.be.true;
      expect(signIns.map((s) => s.user.username)).to.deep.equal(['alice']);
    });

    /**
     * A browser follows `/auth/login?returnTo=…` (e.g. from a link it was sent), signs in, and comes back. An
     * unhandled rejection in the L1 meanwhile — which ends a real L1 process (Node's default) — fails it at once.
     */
    async function signInReturningTo(returnTo: string): Promise<Response> {
      const start = await fetch(`${l1.url}/auth/login?returnTo=${encodeURIComponent(returnTo)}`, {
        redirect: 'manual',
      });
      expect(start.status, returnTo).to.equal(303);
      const cookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
      const atL2 = await fetch(start.headers.get('location')!, { redirect: 'manual' });
      let ended!: (reason: unknown) => void;
      const processEnded = new Promise<never>((_resolve, reject) => (ended = reject));
      process.on('unhandledRejection', ended);
      try {
        return await Promise.race([
          fetch(atL2.headers.get('location')!, { redirect: 'manual', headers: { cookie } }),
          processEnded,
        ]);
      } finally {
        process.off('unhandledRejection', ended);
      }
    }

    it('sends the browser back only to a local path Node can put in a header, whatever returnTo holds, and keeps serving', async () => {
      const expected: Record<string, string> = {
        '/€': '/%E2%82%AC', // the same page, as the browser asks for it anyway
        '/\u0000': '/', // a trailing control character goes, as the browser drops it
        '/a\u0000b': '/a%00b',
        '/\u007f': '/%7F',
        '/café?q=thé#top': '/caf%C3%A9?q=th%C3%A9', // the fragment is the browser's own business
        '//evil.example': '/',
        '/\\evil.example': '/',
        '/.//evil.example': '/', // resolves to "//evil.example"
        '/%2e%2e//evil.example': '/',
        '/\r\nSet-Cookie: session=attacker': '/',
      };
      for (const [returnTo, location] of Object.entries(expected)) {
        const done = await signInReturningTo(returnTo);
        expect(done.status, JSON.stringify(returnTo)).to.equal(303);
        expect(done.headers.get('location'), JSON.stringify(returnTo)).to.equal(location);
        expect((await fetch(`${l1.url}/public`)).status).to.equal(200);
      }
      expect(signIns).to.have.length(Object.keys(expected).length);
    });

    if (name !== 'Fastify') {
      // Fastify is not one of the kit's adapters: it writes the kit's answer itself (and answers 500 on its own).
      it("answers a bare 500 when the kit's answer cannot be written (a header value Node refuses), and keeps serving", async () => {
        hooks.onSignIn = (result) => {
          result.response.headers['X-Greeting'] = 'Welcome ☺'; // not Latin-1: Node refuses it in a header
        };
        const logged: unknown[][] = [];
        const consoleError = console.error;
        console.error = (...args: unknown[]) => void logged.push(args);
        let done: Response;
        try {
          done = await signInReturningTo('/home');
        } finally {
          console.error = consoleError;
        }
        expect(done.status).to.equal(500);
        expect(done.headers.get('location')).to.equal(null);
        expect(done.headers.getSetCookie()).to.deep.equal([]);
        expect(await done.text()).to.equal('');
        expect(logged.map((args) => String(args[0]))).to.deep.equal([
          'l1-kit: could not write an answer (ERR_INVALID_CHAR); answered a bare 500',
        ]);

        hooks.onSignIn = (result) => void signIns.push(result);
        expect((await fetch(`${l1.url}/public`)).status).to.equal(200);
        expect((await signInReturningTo('/home')).headers.get('location')).to.equal('/home');
      });
    }
  });
}
