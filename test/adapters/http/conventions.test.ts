import { expect } from 'chai';
import type { UserRepository } from '../../../src/application/ports/user-repository.js';
import { FormBrowser } from '../../support/browser.js';
import { client, registerUser, type HttpResponse } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, PASSWORD, startServer, STORES } from './helpers.js';

/** Anything that would betray the implementation: stack frames, file paths, exception names. */
const INTERNALS =
  /\bat \S+ \(|\.ts:\d+|\.js:\d+|\/work\/|node_modules|\b(Type|Reference|Syntax|Sqlite)Error\b|\bstack\b/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type OpenApi = any;

for (const store of STORES) {
  describe(`HTTP conventions (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;

    afterEach(() => server?.close());

    describe('with a working server', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
      });

      describe('problem details (RFC 9457)', () => {
        /** The exact problem shape: type, title, status, code, detail — nothing internal. */
        function expectShape(response: HttpResponse, status: number, code: string): void {
          const body = expectProblem(response, status, code);
          for (const key of Object.keys(body))
            expect(['type', 'title', 'status', 'code', 'detail', 'errors', 'valid']).to.include(key);
          expect(response.text).to.not.match(INTERNALS);
        }

        it('answers 404 not_found for an unknown path', async () => {
          expectShape(await api.get('/no/such/thing'), 404, 'not_found');
          expectShape(await api.get('/auth/nothing-here'), 404, 'not_found');
          expectShape(await api.post('/no/such/thing', { a: 1 }), 404, 'not_found');
        });

        it('answers 405 method_not_allowed to GET /auth/login and PUT /auth/verify', async () => {
          expectShape(await api.get('/auth/login'), 405, 'method_not_allowed');
          expectShape(await api.send('PUT', '/auth/verify', { token: 'x' }), 405, 'method_not_allowed');
          expectShape(await api.send('DELETE', '/auth/register'), 405, 'method_not_allowed');
          expectShape(await api.get('/renderers/attach'), 405, 'method_not_allowed');
        });

        it('lists the allowed methods in an Allow header on 405 (RFC 9110 §15.5.6)', async () => {
          const response = await api.get('/auth/login');
          expect(response.status).to.equal(405);
          expect(response.headers.get('allow')).to.match(/\bPOST\b/);
        });

        it('answers 415 unsupported_media_type to text/plain, XML and multipart bodies', async () => {
          for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
            const response = await api.post('/auth/login', undefined, {
              raw: '{}',
              headers: { 'content-type': type },
            });
            expectShape(response, 415, 'unsupported_media_type');
          }
        });

        it('answers 413 payload_too_large to a body over 64 KiB', async () => {
          const response = await api.post('/auth/register', {
            username: 'alice',
            password: 'p'.repeat(70 * 1024),
          });
          expectShape(response, 413, 'payload_too_large');
        });

        it('accepts a body of exactly 64 KiB (judging it by the rules instead) and refuses one byte more', async () => {
          const body = (bytes: number) => `{"token":"${'t'.repeat(bytes - 12)}"}`;
          expect(body(65536)).to.have.length(65536);
          const exact = await api.post('/auth/verify', undefined, {
            raw: body(65536),
            headers: { 'content-type': 'application/json' },
          });
          expect(exact.status).to.equal(401);
          expect(exact.json.code).to.equal('token_invalid');
          const over = await api.post('/auth/verify', undefined, {
            raw: body(65537),
            headers: { 'content-type': 'application/json' },
          });
          expectShape(over, 413, 'payload_too_large');
        });

        it('answers 400 invalid_request to malformed JSON', async () => {
          for (const raw of ['{"username": "alice",', '{username: "alice"}', "{'a': 1}", '{"a": 1}}']) {
            const response = await api.post('/auth/login', undefined, {
              raw,
              headers: { 'content-type': 'application/json' },
            });
            expectShape(response, 400, 'invalid_request');
          }
        });

        it('answers 406 not_acceptable on a negotiated route asked for an impossible type', async () => {
          expectShape(await api.get('/', { headers: { accept: 'image/png' } }), 406, 'not_acceptable');
        });

        it('adds errors[{path, message}] to validation problems', async () => {
          const body = expectProblem(
            await api.post('/auth/register', { username: 'a', password: 'b' }),
            400,
            'invalid_request',
          );
          expect(body.errors).to.be.an('array').with.length.greaterThan(0);
          for (const error of body.errors) {
            expect(error).to.have.all.keys('path', 'message');
            expect(error.path).to.be.a('string');
            expect(error.message).to.be.a('string');
          }
        });

        it('never shows a stack trace or file path in any error body, JSON or HTML', async () => {
          const token = await registerUser(server.url, 'alice');
          const responses = [
            await api.get('/nope'),
            await api.get('/nope', { headers: { accept: 'text/html' } }),
            await api.get('/auth/login', { headers: { accept: 'text/html' } }),
            await api.post('/auth/verify', undefined, {
              raw: '{bad',
              headers: { 'content-type': 'application/json' },
            }),
            await api.post('/auth/verify', undefined, {
              raw: '{bad',
              headers: { 'content-type': 'application/json', accept: 'text/html' },
            }),
            await api.post('/auth/verify', { token: 'a.b.c' }),
            await api.post('/auth/verify', { token: 5 }),
            await api.post('/auth/register', { username: 'alice', password: PASSWORD }),
            await api.post('/auth/login', { username: 'alice', password: 'nope' }),
            await api.get('/auth/me', { token: 'x' }),
            await api.post('/renderers/attach', { l1_server: 'ftp://x' }, { token }),
            await api.post('/renderers/attach', { l1_server: 'https://x.example' }, { token: 'bad' }),
            await api.post('/auth/verify', undefined, {
              raw: 'x'.repeat(70_000),
              headers: { 'content-type': 'application/json' },
            }),
          ];
          for (const response of responses) {
            expect(response.status).to.be.within(400, 499);
            expect(response.text, response.text).to.not.match(INTERNALS);
          }
        });
      });

      describe('operations', () => {
        it('GET /healthz answers 200 {status: "ok"}', async () => {
          const response = await api.get('/healthz');
          expect(response.status).to.equal(200);
          expect(response.json).to.deep.equal({ status: 'ok' });
        });

        it('GET /readyz answers 200 while the store answers', async () => {
          const response = await api.get('/readyz');
          expect(response.status).to.equal(200);
        });
      });

      describe('GET /openapi.json', () => {
        let doc: OpenApi;

        beforeEach(async () => {
          const response = await api.get('/openapi.json');
          expect(response.status).to.equal(200);
          expect(response.headers.get('content-type')).to.match(/^application\/json/);
          doc = response.json;
        });

        /** Resolves a `$ref` inside the document. */
        const resolve = (schema: OpenApi): OpenApi => {
          if (!schema?.$ref) return schema;
          const path = (schema.$ref as string).replace(/^#\//, '').split('/');
          return path.reduce((node: OpenApi, key) => node?.[key], doc);
        };

        it('is OpenAPI 3.1', () => {
          expect(doc.openapi).to.be.a('string').and.match(/^3\.1/);
          expect(doc.info).to.have.property('title');
        });

        for (const [method, path] of [
          ['post', '/auth/register'],
          ['post', '/auth/login'],
          ['get', '/auth/me'],
          ['post', '/auth/verify'],
          ['post', '/auth/logout'],
          ['post', '/renderers/attach'],
          ['get', '/renderers'],
          ['post', '/renderers/detach'],
          ['get', '/healthz'],
          ['get', '/readyz'],
        ] as const) {
          it(`documents ${method.toUpperCase()} ${path}`, () => {
            expect(doc.paths, path).to.have.property(path);
            expect(doc.paths[path], `${method} ${path}`).to.have.property(method);
            expect(doc.paths[path][method].responses).to.be.an('object').that.is.not.empty;
          });
        }

        for (const [path, schemaName, properties, required] of [
          ['/auth/register', 'RegisterRequest', ['username', 'password'], ['username', 'password']],
          ['/auth/login', 'LoginRequest', ['username', 'password'], ['username', 'password']],
          ['/auth/verify', 'VerifyRequest', ['token', 'l1_server'], ['token']],
          ['/renderers/attach', 'RendererRequest', ['l1_server'], ['l1_server']],
          ['/renderers/detach', 'RendererRequest', ['l1_server'], ['l1_server']],
        ] as const) {
          it(`gives POST ${path} a JSON request body schema ${schemaName} with ${properties.join(', ')}`, () => {
            const content = doc.paths[path].post.requestBody?.content;
            expect(content, path).to.have.property('application/json');
            const ref = content['application/json'].schema;
            const schema = resolve(ref);
            if (ref.$ref) expect(ref.$ref).to.equal(`#/components/schemas/${schemaName}`);
            expect(schema.properties).to.include.all.keys(...properties);
            expect(schema.required ?? []).to.include.members([...required]);
          });
        }

        it('documents the contract responses of /auth/verify (200, 400, 401, 503)', () => {
          expect(doc.paths['/auth/verify'].post.responses).to.include.all.keys('200', '400', '401', '503');
        });

        it('documents the 409 of register and the 429 of login', () => {
          expect(doc.paths['/auth/register'].post.responses).to.have.property('409');
          expect(doc.paths['/auth/login'].post.responses).to.have.property('429');
        });
      });

      describe('security headers', () => {
        it('sends nosniff and a CSP with frame-ancestors none and no unsafe-inline on every kind of answer', async () => {
          const token = await registerUser(server.url, 'alice');
          const responses = [
            await api.get('/', { headers: { accept: 'text/html' } }),
            await api.get('/login', { headers: { accept: 'text/html' } }),
            await api.get('/', { headers: { accept: 'application/json' } }),
            await api.get('/auth/me', { token }),
            await api.get('/auth/me'),
            await api.get('/nope', { headers: { accept: 'text/html' } }),
            await api.get('/renderers', { headers: { accept: 'text/html' } }),
            await api.get('/healthz'),
          ];
          for (const response of responses) {
            expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
            const csp = response.headers.get('content-security-policy') ?? '';
            expect(csp).to.match(/frame-ancestors 'none'/);
            expect(csp).to.match(/object-src 'none'/);
            expect(csp).to.match(/base-uri 'none'/);
            expect(csp).to.not.match(/unsafe-inline|unsafe-eval/);
          }
        });

        it('sends the security headers with static files too', async () => {
          const style = await api.get('/static/style.css');
          expect(style.status).to.equal(200);
          expect(style.headers.get('x-content-type-options')).to.equal('nosniff');
          expect(style.headers.get('x-frame-options')).to.equal('DENY');
          expect(style.headers.get('content-security-policy')).to.match(/frame-ancestors 'none'/);
          expect(style.headers.get('cache-control')).to.equal('public, max-age=3600');
        });

        it('sends no Strict-Transport-Security when PUBLIC_URL is http (a browser would pin a plain-http site)', async () => {
          expect((await api.get('/healthz')).headers.get('strict-transport-security')).to.equal(null);
        });

        it('keeps every page a signed-in user sees out of caches (private, no-store) and keys pages on the cookie', async () => {
          const token = await registerUser(server.url, 'alice');
          const cookie = { cookie: `l2_token=${token}`, accept: 'text/html' };
          for (const path of [
            '/',
            '/registry',
            '/users/alice',
            '/activities',
            '/renderers',
            '/no-such-page',
          ]) {
            const signedIn = await api.get(path, { headers: cookie });
            expect(signedIn.text, path).to.include('alice');
            expect(signedIn.headers.get('cache-control'), path).to.equal('private, no-store');
            expect(signedIn.headers.get('vary') ?? '', path).to.match(/\bCookie\b/);
            // A first visit gets its CSRF seed cookie: that answer is the visitor's alone.
            const first = await api.get(path, { headers: { accept: 'text/html' } });
            if (first.status === 303) continue; // a signed-out visitor is sent to the login form
            expect(first.headers.get('vary') ?? '', path).to.match(/\bCookie\b/);
            const seed = first.headers.get('set-cookie')?.split(';')[0];
            expect(seed, path).to.match(/^l2_csrf=/);
            expect(first.headers.get('cache-control'), path).to.equal('private, no-store');
            // With the seed, a signed-out page sets nothing and is the same for every such visitor.
            const again = await api.get(path, { headers: { accept: 'text/html', cookie: seed! } });
            expect(again.headers.get('set-cookie'), path).to.equal(null);
            expect(again.headers.get('cache-control') ?? '', path).to.not.equal('private, no-store');
          }
        });

        it('keeps a page with a form out of shared caches even for a returning signed-out visitor', async () => {
          for (const path of ['/login', '/register']) {
            const first = await api.get(path, { headers: { accept: 'text/html' } });
            const seed = first.headers.get('set-cookie')!.split(';')[0]!;
            const again = await api.get(path, { headers: { accept: 'text/html', cookie: seed } });
            expect(again.headers.get('set-cookie'), path).to.equal(null);
            expect(again.text, path).to.include('name="_csrf"');
            expect(again.headers.get('cache-control'), path).to.equal('private, no-store');
          }
        });

        it('puts no inline script in its pages', async () => {
          for (const path of ['/', '/login', '/register']) {
            const page = await api.get(path, { headers: { accept: 'text/html' } });
            expect(page.text, path).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/i);
            expect(page.text, path).to.not.match(/\son[a-z]+="/i);
          }
        });
      });

      describe('Cache-Control: no-store on every /auth/* and /renderers* answer', () => {
        it('is present on successes, redirects and errors alike', async () => {
          const alice = await registerUser(server.url, 'alice');
          const scoped = (
            await api.post('/renderers/attach', { l1_server: 'https://a.example' }, { token: alice })
          ).json.access_token;
          const browser = new FormBrowser(server.url);
          await browser.get('/login');
          const checks: [string, HttpResponse][] = [
            ['register 201', await api.post('/auth/register', { username: 'bob', password: PASSWORD })],
            ['register 400', await api.post('/auth/register', { username: '', password: '' })],
            ['register 409', await api.post('/auth/register', { username: 'bob', password: PASSWORD })],
            [
              'register 413',
              await api.post('/auth/register', { username: 'x'.repeat(70_000), password: PASSWORD }),
            ],
            [
              'register 415',
              await api.post('/auth/register', undefined, {
                raw: 'x',
                headers: { 'content-type': 'text/plain' },
              }),
            ],
            [
              'register form 403',
              await browser.submit('/auth/register', { username: 'c', password: 'd', _csrf: 'x' }),
            ],
            ['login 200', await api.post('/auth/login', { username: 'bob', password: PASSWORD })],
            ['login 401', await api.post('/auth/login', { username: 'bob', password: 'wrong!!!' })],
            ['login form 303', await browser.submit('/auth/login', { username: 'bob', password: PASSWORD })],
            ['login 405', await api.get('/auth/login')],
            [
              'login 400 malformed',
              await api.post('/auth/login', undefined, {
                raw: '{',
                headers: { 'content-type': 'application/json' },
              }),
            ],
            ['me 200', await api.get('/auth/me', { token: alice })],
            ['me 200, path in capitals', await api.get('/AUTH/me', { token: alice })],
            [
              'renderers 200, path in mixed case',
              await api.get('/Renderers', { token: alice, headers: { accept: 'application/json' } }),
            ],
            ['me 401', await api.get('/auth/me')],
            ['verify 200', await api.post('/auth/verify', { token: scoped, l1_server: 'https://a.example' })],
            ['verify 401', await api.post('/auth/verify', { token: 'x' })],
            ['verify 400', await api.post('/auth/verify', {})],
            ['unknown /auth path 404', await api.get('/auth/unknown')],
            [
              'attach 201',
              await api.post('/renderers/attach', { l1_server: 'https://b.example' }, { token: alice }),
            ],
            ['attach 400', await api.post('/renderers/attach', { l1_server: 'nope' }, { token: alice })],
            ['attach 401', await api.post('/renderers/attach', { l1_server: 'https://b.example' })],
            [
              'attach 403',
              await api.post('/renderers/attach', { l1_server: 'https://b.example' }, { token: scoped }),
            ],
            [
              'renderers 200',
              await api.get('/renderers', { token: alice, headers: { accept: 'application/json' } }),
            ],
            [
              'renderers html 200',
              await api.get('/renderers', { token: alice, headers: { accept: 'text/html' } }),
            ],
            ['renderers 303', await api.get('/renderers', { headers: { accept: 'text/html' } })],
            ['renderers 401', await api.get('/renderers', { headers: { accept: 'application/json' } })],
            [
              'renderers 406',
              await api.get('/renderers', { token: alice, headers: { accept: 'image/png' } }),
            ],
            [
              'detach 200',
              await api.post('/renderers/detach', { l1_server: 'https://b.example' }, { token: alice }),
            ],
            ['logout 200', await api.post('/auth/logout', undefined, { token: alice })],
            ['logout 401', await api.post('/auth/logout', undefined, { token: 'x' })],
          ];
          for (const [label, response] of checks) {
            // A page for a signed-in user says `private` too.
            expect(response.headers.get('cache-control'), `${label} (${response.status})`).to.match(
              /^(private, )?no-store$/,
            );
          }
        });
      });

      describe('prototype pollution', () => {
        afterEach(() => {
          // Repair the process if a test polluted it, so one failure cannot spread.
          delete (Object.prototype as Record<string, unknown>).admin;
        });

        it('does not pollute Object.prototype through a __proto__ or constructor.prototype JSON key', async () => {
          await api.post('/auth/register', undefined, {
            raw: `{"username":"bob_1","password":"${PASSWORD}","__proto__":{"admin":true}}`,
            headers: { 'content-type': 'application/json' },
          });
          await api.post('/auth/verify', undefined, {
            raw: '{"token":"x","constructor":{"prototype":{"admin":true}}}',
            headers: { 'content-type': 'application/json' },
          });
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          expect(({} as any).admin).to.equal(undefined);
        });

        it('does not pollute Object.prototype through form fields', async () => {
          const response = await api.post('/auth/verify', undefined, {
            raw: 'token=x&__proto__[admin]=true&constructor[prototype][admin]=true',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          expect(response.status).to.be.within(400, 499);
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          expect(({} as any).admin).to.equal(undefined);
        });

        it('registers a well-formed JSON body that carries a __proto__ key (201), ignoring the key', async () => {
          const response = await api.post('/auth/register', undefined, {
            raw: `{"username":"bob_1","password":"${PASSWORD}","__proto__":{"admin":true}}`,
            headers: { 'content-type': 'application/json' },
          });
          expect(response.status, response.text).to.equal(201);
          expect(response.json.username).to.equal('bob_1');
          expect(response.json).to.not.have.property('admin');
        });
      });
    });

    describe('with an https PUBLIC_URL', () => {
      it('sends Strict-Transport-Security on pages, API answers and static files', async () => {
        server = await startServer(store, { env: { PUBLIC_URL: 'https://l2.example' } });
        api = client(server.url);
        for (const path of ['/', '/healthz', '/static/style.css', '/nope']) {
          expect((await api.get(path)).headers.get('strict-transport-security'), path).to.equal(
            'max-age=31536000; includeSubDomains',
          );
        }
      });
    });

    describe('when an adapter fails unexpectedly', () => {
      const secretMessage = 'boom at /work/main/src/secret-file.ts:12:34 with password hunter2';

      beforeEach(async () => {
        const failing = new Proxy(
          {},
          {
            get: () => async () => {
              throw new TypeError(secretMessage);
            },
          },
        ) as UserRepository;
        server = await startServer(store, {
          override: { store: (p) => ({ ...p.openedStore.persistence, users: failing }) },
        });
        api = client(server.url);
      });

      it('answers 500 internal_error and says nothing else', async () => {
        const response = await api.post('/auth/register', { username: 'alice', password: PASSWORD });
        const body = expectProblem(response, 500, 'internal_error');
        expect(body.detail).to.equal('internal_error');
        expect(response.text).to.not.include('boom');
        expect(response.text).to.not.include('hunter2');
        expect(response.text).to.not.match(INTERNALS);
      });

      it('shows a browser a 500 page without the internal message', async () => {
        const response = await api.get('/', { headers: { accept: 'text/html' } });
        expect(response.status).to.equal(500);
        expect(response.headers.get('content-type')).to.match(/^text\/html/);
        expect(response.text).to.not.include('boom');
        expect(response.text).to.not.match(INTERNALS);
      });
    });
  });
}
