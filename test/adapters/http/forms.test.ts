import { expect } from 'chai';
import { FormBrowser } from '../../support/browser.js';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { client, registerUser, request } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, jwtPayload, PASSWORD, setCookies, startServer, STORES } from './helpers.js';

const CSRF_FIELD = /name="_csrf" value="([^"]+)"/;

for (const store of STORES) {
  describe(`HTML forms (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let browser: FormBrowser;

    const verifyCode = async (token: string, l1Server?: string) => {
      const response = await api.post('/auth/verify', l1Server ? { token, l1_server: l1Server } : { token });
      return response.status === 200 ? 'valid' : (response.json.code as string);
    };

    /** A browser signed in as `username` through the register form. */
    const signedInBrowser = async (username: string): Promise<FormBrowser> => {
      const b = new FormBrowser(server.url);
      await b.get('/register');
      const response = await b.submit('/auth/register', { username, password: PASSWORD });
      expect(response.status, response.text).to.be.oneOf([303, 201]);
      expect(b.cookie('l2_token'), 'l2_token cookie after registering').to.be.a('string');
      await b.get('/renderers'); // a page with the signed-in user's CSRF token
      return b;
    };

    afterEach(() => server?.close());

    describe('with an http PUBLIC_URL', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        browser = new FormBrowser(server.url);
      });

      describe('sign-up and sign-in pages', () => {
        for (const [path, action] of [
          ['/register', '/auth/register'],
          ['/login', '/auth/login'],
        ] as const) {
          it(`GET ${path} renders a form posting to ${action} with a _csrf field and sets the CSRF cookie`, async () => {
            const page = await browser.get(path);
            expect(page.status).to.equal(200);
            expect(page.headers.get('content-type')).to.match(/^text\/html/);
            expect(page.text).to.include(`action="${action}"`);
            expect(page.text).to.match(CSRF_FIELD);
            expect(page.text).to.match(/name="username"/);
            expect(page.text).to.match(
              /name="password"[^>]*type="password"|type="password"[^>]*name="password"/,
            );
            expect(browser.cookie('l2_csrf')).to.be.a('string');
          });
        }

        it('escapes a hostile next in the login page', async () => {
          const page = await browser.get(`/login?next=${encodeURIComponent('/"><script>alert(1)</script>')}`);
          expect(page.status).to.equal(200);
          expect(page.text).to.not.include('<script>alert(1)</script>');
          expect(page.text).to.not.include('"><script>');
        });

        it('GET /login carries a local next into the form', async () => {
          const page = await browser.get('/login?next=%2Frenderers');
          expect(page.text).to.match(/name="next" value="\/renderers"/);
        });

        it('signed in, GET /login and GET /register answer 303 to /', async () => {
          const b = await signedInBrowser('alice');
          for (const path of ['/login', '/register']) {
            const response = await b.get(path);
            expect(response.status, path).to.equal(303);
            expect(response.headers.get('location'), path).to.equal('/');
          }
        });
      });

      describe('register form', () => {
        it('answers 303 to / and sets l2_token with Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax and no Secure', async () => {
          await browser.get('/register');
          const response = await browser.submit('/auth/register', { username: 'Alice', password: PASSWORD });
          expect(response.status, response.text).to.equal(303);
          expect(response.headers.get('location')).to.equal('/');
          expect(response.text).to.equal('');
          const [cookie, ...more] = setCookies(response, 'l2_token');
          expect(more).to.deep.equal([]);
          expect(cookie).to.match(/^l2_token=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; /);
          const attributes = cookie!
            .split(';')
            .slice(1)
            .map((a) => a.trim().toLowerCase());
          expect(attributes).to.include.members(['max-age=2592000', 'path=/', 'httponly', 'samesite=lax']);
          expect(attributes).to.not.include('secure');
          expect(response.headers.get('cache-control')).to.equal('no-store');
        });

        it('signs the browser in: the cookie token belongs to the new user and verifies', async () => {
          await browser.get('/register');
          await browser.submit('/auth/register', { username: 'Alice', password: PASSWORD });
          const token = browser.cookie('l2_token')!;
          expect(jwtPayload(token).username).to.equal('alice');
          expect(await verifyCode(token)).to.equal('valid');
          const home = await browser.get('/');
          expect(home.text).to.include('alice');
        });

        it('re-renders the form with 409 and role="alert" for a taken name, keeping the username but not the password', async () => {
          await registerUser(server.url, 'alice');
          await browser.get('/register');
          const response = await browser.submit('/auth/register', {
            username: 'alice',
            password: 'Zq9-secret-pw',
          });
          expect(response.status).to.equal(409);
          expect(response.headers.get('content-type')).to.match(/^text\/html/);
          expect(response.text).to.match(/role="alert"/);
          expect(response.text).to.match(/name="username"[^>]*value="alice"/);
          expect(response.text).to.not.include('Zq9-secret-pw');
          expect(browser.cookie('l2_token')).to.equal(undefined);
        });

        it('re-renders the form with 400 and role="alert" for an invalid username', async () => {
          await browser.get('/register');
          const response = await browser.submit('/auth/register', { username: 'a!', password: PASSWORD });
          expect(response.status).to.equal(400);
          expect(response.text).to.match(/role="alert"/);
          expect(response.text).to.not.include(PASSWORD);
        });
      });

      describe('CSRF on sign-up and sign-in forms', () => {
        it('refuses a register form without _csrf with 403 csrf_failed and creates no account', async () => {
          await browser.get('/register');
          const response = await request(
            'POST',
            `${server.url}/auth/register`,
            { username: 'alice', password: PASSWORD },
            { form: true, headers: { cookie: browser.cookieHeader() } },
          );
          expectProblem(response, 403, 'csrf_failed');
          expect(setCookies(response, 'l2_token')).to.deep.equal([]);
          expect(
            (await api.post('/auth/register', { username: 'alice', password: PASSWORD })).status,
          ).to.equal(201);
        });

        it('refuses a login form with a wrong _csrf with 403 csrf_failed and sets no cookie', async () => {
          await registerUser(server.url, 'alice');
          await browser.get('/login');
          const response = await browser.submit(
            '/auth/login',
            { username: 'alice', password: PASSWORD, _csrf: 'forged-token' },
            { headers: { accept: 'application/json' } },
          );
          expectProblem(response, 403, 'csrf_failed');
          expect(setCookies(response, 'l2_token')).to.deep.equal([]);
        });

        it("refuses another browser's _csrf (a token not matching this browser's cookie)", async () => {
          const other = new FormBrowser(server.url);
          await other.get('/login');
          await browser.get('/login');
          const response = await browser.submit(
            '/auth/register',
            { username: 'alice', password: PASSWORD, _csrf: other.csrfToken },
            { headers: { accept: 'application/json' } },
          );
          expectProblem(response, 403, 'csrf_failed');
        });

        it('refuses a form with a _csrf but no CSRF cookie (a cross-site post)', async () => {
          await browser.get('/login');
          const response = await request(
            'POST',
            `${server.url}/auth/register`,
            { username: 'alice', password: PASSWORD, _csrf: browser.csrfToken },
            { form: true },
          );
          expectProblem(response, 403, 'csrf_failed');
        });

        it('shows a browser the 403 as an HTML page', async () => {
          await browser.get('/login');
          const response = await browser.submit('/auth/login', {
            username: 'a',
            password: 'b',
            _csrf: 'nope',
          });
          expect(response.status).to.equal(403);
          expect(response.headers.get('content-type')).to.match(/^text\/html/);
        });
      });

      describe('login form', () => {
        beforeEach(() => registerUser(server.url, 'alice'));

        it('answers 303 to / and sets the l2_token cookie', async () => {
          await browser.get('/login');
          const response = await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/');
          const [cookie] = setCookies(response, 'l2_token');
          expect(cookie).to.match(/; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
          expect(await verifyCode(browser.cookie('l2_token')!)).to.equal('valid');
        });

        it('re-renders with 401 and role="alert" for a wrong password, keeping the username and never the password', async () => {
          await browser.get('/login');
          const response = await browser.submit('/auth/login', {
            username: 'alice',
            password: 'Zq9-wrong-password',
          });
          expect(response.status).to.equal(401);
          expect(response.headers.get('content-type')).to.match(/^text\/html/);
          expect(response.text).to.match(/role="alert"/);
          expect(response.text).to.match(/name="username"[^>]*value="alice"/);
          expect(response.text).to.not.include('Zq9-wrong-password');
          expect(response.text).to.not.match(/type="password"[^>]*value="[^"]/);
          expect(browser.cookie('l2_token')).to.equal(undefined);
        });

        it('escapes the username it keeps', async () => {
          await browser.get('/login');
          const response = await browser.submit('/auth/login', {
            username: '"><script>x()</script>',
            password: 'whatever',
          });
          expect(response.status).to.equal(401);
          expect(response.text).to.not.include('<script>x()</script>');
        });

        it('follows a local next: next=/renderers → 303 /renderers', async () => {
          await browser.get('/login?next=%2Frenderers');
          const response = await browser.submit('/auth/login', {
            username: 'alice',
            password: PASSWORD,
            next: '/renderers',
          });
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/renderers');
        });

        for (const next of [
          '//evil.test',
          'https://evil.test',
          '/\\evil.test',
          '/\t/evil.test',
          '/%09/evil.test'.replace('%09', '\t'),
          ' //evil.test',
          'javascript:alert(1)',
          'evil.test',
          // Dot segments resolve to a path that starts with two slashes: another host to a browser.
          '/.//evil.test',
          '/a/..//evil.test',
          '/%2e//evil.test',
          '/./\\evil.test',
        ]) {
          it(`refuses a non-local next ${JSON.stringify(next)}: 303 to /`, async () => {
            await browser.get('/login');
            const response = await browser.submit('/auth/login', {
              username: 'alice',
              password: PASSWORD,
              next,
            });
            expect(response.status).to.equal(303);
            expect(response.headers.get('location')).to.equal('/');
          });
        }

        it('percent-encodes a local next with non-ASCII characters instead of failing', async () => {
          await browser.get('/login');
          const response = await browser.submit('/auth/login', {
            username: 'alice',
            password: PASSWORD,
            next: '/€?x=é',
          });
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/%E2%82%AC?x=%C3%A9');
        });

        it('strips line breaks from next as a browser would (no header injection): a harmless local path', async () => {
          await browser.get('/login');
          const response = await browser.submit('/auth/login', {
            username: 'alice',
            password: PASSWORD,
            next: '/x\r\nSet-Cookie: injected=1',
          });
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/xSet-Cookie:%20injected=1');
          expect(response.headers.getSetCookie().some((c) => c.startsWith('injected='))).to.equal(false);
        });

        it('issues a fresh token: a cookie set before login is replaced (no session fixation)', async () => {
          const planted = await registerUser(server.url, 'mallory');
          await browser.get('/login');
          const response = await browser.submit(
            '/auth/login',
            { username: 'alice', password: PASSWORD },
            { headers: { cookie: `${browser.cookieHeader()}; l2_token=${planted}` } },
          );
          const [cookie] = setCookies(response, 'l2_token');
          expect(cookie).to.be.a('string').and.not.include(planted);
          expect(jwtPayload(browser.cookie('l2_token')!).username).to.equal('alice');
        });
      });

      describe('a cookie whose token is no longer valid', () => {
        it('counts as signed out on pages: /renderers answers 303 to the login page after the token is revoked', async () => {
          const b = await signedInBrowser('alice');
          const token = b.cookie('l2_token')!;
          expect((await api.post('/auth/logout', undefined, { token })).status).to.equal(200);
          const response = await b.get('/renderers');
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/login?next=%2Frenderers');
          const login = await b.get('/login');
          expect(login.status).to.equal(200);
        });

        it('is refused by the JSON API with 401 token_revoked', async () => {
          const b = await signedInBrowser('alice');
          const token = b.cookie('l2_token')!;
          await api.post('/auth/logout', undefined, { token });
          const response = await request('GET', `${server.url}/auth/me`, undefined, {
            headers: { cookie: b.cookieHeader() },
          });
          expectProblem(response, 401, 'token_revoked');
        });
      });

      describe('cookie-authenticated logout', () => {
        it('refuses POST /auth/logout without CSRF with 403, and the token still verifies', async () => {
          const b = await signedInBrowser('alice');
          const token = b.cookie('l2_token')!;
          const response = await request('POST', `${server.url}/auth/logout`, undefined, {
            headers: { cookie: b.cookieHeader() },
          });
          expectProblem(response, 403, 'csrf_failed');
          expect(await verifyCode(token)).to.equal('valid');
        });

        it('refuses a logout form with a wrong _csrf with 403, and the token still verifies', async () => {
          const b = await signedInBrowser('alice');
          const token = b.cookie('l2_token')!;
          const response = await b.submit('/auth/logout', { _csrf: 'wrong' });
          expect(response.status).to.equal(403);
          expect(await verifyCode(token)).to.equal('valid');
        });

        it('with the CSRF token, a logout form revokes the cookie token and clears the cookie', async () => {
          const b = await signedInBrowser('alice');
          const token = b.cookie('l2_token')!;
          const response = await b.submit('/auth/logout', {});
          expect(await verifyCode(token)).to.equal('token_revoked');
          expect(setCookies(response, 'l2_token')[0]).to.match(/^l2_token=; Max-Age=0;/);
          expect(b.cookie('l2_token')).to.equal(undefined);
        });

        it('with the CSRF token, a logout form answers 303 to /', async () => {
          const b = await signedInBrowser('alice');
          const response = await b.submit('/auth/logout', {});
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/');
        });

        it('has a logout form with a CSRF token in the navigation of every page when signed in', async () => {
          const b = await signedInBrowser('alice');
          for (const path of ['/', '/renderers']) {
            const page = await b.get(path);
            expect(page.text, path).to.match(
              /<form[^>]*action="\/auth\/logout"[\s\S]*?name="_csrf" value="[^"]+"/,
            );
          }
        });
      });

      describe('renderer forms', () => {
        let l1: FakeL1Server;

        beforeEach(async () => {
          l1 = await new FakeL1Server().start();
        });
        afterEach(() => l1.stop());

        it('attach answers 303 to <l1>/auth/callback?token=<jwt> with no-store, no-referrer and an empty body', async () => {
          const b = await signedInBrowser('alice');
          const response = await b.submit('/renderers/attach', { l1_server: `${l1.url}/` });
          expect(response.status, response.text).to.equal(303);
          const location = new URL(response.headers.get('location') ?? '');
          expect(`${location.origin}${location.pathname}`).to.equal(`${l1.url}/auth/callback`);
          expect([...location.searchParams.keys()]).to.deep.equal(['token']);
          expect(response.headers.get('cache-control')).to.equal('no-store');
          expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
          expect(response.text).to.equal('');
        });

        it('delivers, through the Location, a token that verifies at /auth/verify for that L1 server only', async () => {
          const b = await signedInBrowser('alice');
          const response = await b.submit('/renderers/attach', { l1_server: l1.url });
          const location = response.headers.get('location') ?? '';
          // The browser follows the redirect: the L1 server receives the token on its callback.
          await fetch(location);
          expect(l1.callbacks).to.have.length(1);
          const token = l1.callbacks[0]!.searchParams.get('token') ?? '';
          expect(jwtPayload(token)).to.include({ username: 'alice', l1_server: l1.url });
          expect(await verifyCode(token, l1.url)).to.equal('valid');
          expect(await verifyCode(token, 'https://l1.other')).to.equal('token_scope_mismatch');
          expect(await verifyCode(token)).to.equal('token_scope_mismatch');
        });

        it('never shows the scoped token in an HTML body (attach answer, /renderers, /, /login, /register)', async () => {
          const b = await signedInBrowser('alice');
          const response = await b.submit('/renderers/attach', { l1_server: l1.url });
          const token = new URL(response.headers.get('location') ?? '').searchParams.get('token') ?? '';
          expect(token).to.not.equal('');
          const signature = token.split('.')[2]!;
          const bodies = [response.text];
          for (const path of ['/renderers', '/', '/login', '/register', '/no-such-page'])
            bodies.push((await b.get(path)).text);
          const list = await api.get('/renderers', {
            token: b.cookie('l2_token')!,
            headers: { accept: 'application/json' },
          });
          bodies.push(list.text);
          for (const body of bodies) {
            expect(body).to.not.include(token);
            expect(body).to.not.include(signature);
          }
        });

        it('lists the attached L1 server on the renderers page with a detach form carrying it', async () => {
          const b = await signedInBrowser('alice');
          await b.submit('/renderers/attach', { l1_server: l1.url });
          const page = await b.get('/renderers');
          expect(page.status).to.equal(200);
          expect(page.text).to.match(
            new RegExp(
              `action="/renderers/detach"[\\s\\S]*?name="l1_server" value="${l1.url.replace(/\./g, '\\.')}"`,
            ),
          );
        });

        it('detach answers 303 to /renderers, revokes the token and removes the attachment', async () => {
          const b = await signedInBrowser('alice');
          const attach = await b.submit('/renderers/attach', { l1_server: l1.url });
          const token = new URL(attach.headers.get('location') ?? '').searchParams.get('token') ?? '';
          await b.get('/renderers');
          const response = await b.submit('/renderers/detach', { l1_server: l1.url });
          expect(await verifyCode(token, l1.url)).to.equal('token_revoked');
          const list = await api.get('/renderers', {
            token: b.cookie('l2_token')!,
            headers: { accept: 'application/json' },
          });
          expect(list.json.items).to.deep.equal([]);
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/renderers');
        });

        it('re-renders the renderers page with 400 and role="alert" for a bad URL, keeping the value', async () => {
          const b = await signedInBrowser('alice');
          const response = await b.submit('/renderers/attach', { l1_server: 'ftp://not-an-l1' });
          expect(response.status).to.equal(400);
          expect(response.headers.get('content-type')).to.match(/^text\/html/);
          expect(response.text).to.match(/role="alert"/);
          expect(response.text).to.include('value="ftp://not-an-l1"');
          expect(response.headers.get('location')).to.equal(null);
        });

        it('refuses an attach form without CSRF with 403 and issues nothing', async () => {
          const b = await signedInBrowser('alice');
          const response = await b.submit('/renderers/attach', { l1_server: l1.url, _csrf: '' });
          expect(response.status).to.equal(403);
          expect(response.headers.get('location')).to.equal(null);
          const list = await api.get('/renderers', {
            token: b.cookie('l2_token')!,
            headers: { accept: 'application/json' },
          });
          expect(list.json.items).to.deep.equal([]);
        });
      });

      describe('JSON requests authenticated by the cookie', () => {
        it('need X-CSRF-Token: 403 csrf_failed without it, 201 with the token read from a page', async () => {
          const b = await signedInBrowser('alice');
          const without = await request(
            'POST',
            `${server.url}/renderers/attach`,
            { l1_server: 'https://l1.example' },
            { headers: { cookie: b.cookieHeader() } },
          );
          expectProblem(without, 403, 'csrf_failed');
          const wrong = await request(
            'POST',
            `${server.url}/renderers/attach`,
            { l1_server: 'https://l1.example' },
            { headers: { cookie: b.cookieHeader(), 'x-csrf-token': 'wrong' } },
          );
          expectProblem(wrong, 403, 'csrf_failed');
          const withToken = await request(
            'POST',
            `${server.url}/renderers/attach`,
            { l1_server: 'https://l1.example' },
            { headers: { cookie: b.cookieHeader(), 'x-csrf-token': b.csrfToken } },
          );
          expect(withToken.status, withToken.text).to.equal(201);
        });

        it('need X-CSRF-Token for detach too', async () => {
          const b = await signedInBrowser('alice');
          const without = await request(
            'POST',
            `${server.url}/renderers/detach`,
            { l1_server: 'https://l1.example' },
            { headers: { cookie: b.cookieHeader() } },
          );
          expectProblem(without, 403, 'csrf_failed');
        });

        it('need none for GET requests', async () => {
          const b = await signedInBrowser('alice');
          const response = await request('GET', `${server.url}/auth/me`, undefined, {
            headers: { cookie: b.cookieHeader() },
          });
          expect(response.status).to.equal(200);
        });

        it('need none when authenticated by a bearer token', async () => {
          const token = await registerUser(server.url, 'bob');
          const response = await api.post(
            '/renderers/attach',
            { l1_server: 'https://l1.example' },
            { token },
          );
          expect(response.status).to.equal(201);
          const logout = await api.post('/auth/logout', undefined, { token });
          expect(logout.status).to.equal(200);
        });

        it('need none for JSON login and register, even from a browser holding cookies', async () => {
          const b = await signedInBrowser('alice');
          const cookie = b.cookieHeader();
          const register = await request(
            'POST',
            `${server.url}/auth/register`,
            { username: 'carol', password: PASSWORD },
            { headers: { cookie } },
          );
          expect(register.status, register.text).to.equal(201);
          const login = await request(
            'POST',
            `${server.url}/auth/login`,
            { username: 'carol', password: PASSWORD },
            { headers: { cookie } },
          );
          expect(login.status, login.text).to.equal(200);
        });
      });

      describe('error pages', () => {
        it('shows a browser a 404 HTML page for an unknown path', async () => {
          const response = await browser.get('/no/such/page');
          expect(response.status).to.equal(404);
          expect(response.headers.get('content-type')).to.match(/^text\/html/);
          expect(response.text).to.match(/<h1>[^<]*404/);
        });

        it('answers problem+json to a non-browser on the same path', async () => {
          expectProblem(
            await api.get('/no/such/page', { headers: { accept: 'application/json' } }),
            404,
            'not_found',
          );
        });
      });
    });

    describe('with a low login limit', () => {
      beforeEach(async () => {
        server = await startServer(store, { env: { LOGIN_MAX_FAILURES_PER_USERNAME: '2' } });
        api = client(server.url);
        browser = new FormBrowser(server.url);
        await registerUser(server.url, 'alice');
      });

      it('re-renders the login form with 429, Retry-After and role="alert" once limited', async () => {
        await browser.get('/login');
        for (let i = 0; i < 2; i++) {
          expect(
            (await browser.submit('/auth/login', { username: 'alice', password: `wrong ${i}` })).status,
          ).to.equal(401);
        }
        const response = await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
        expect(response.status).to.equal(429);
        expect(response.headers.get('content-type')).to.match(/^text\/html/);
        expect(response.headers.get('retry-after')).to.match(/^[1-9]\d*$/);
        expect(response.text).to.match(/role="alert"/);
        expect(response.text).to.not.include(PASSWORD);
        expect(browser.cookie('l2_token')).to.equal(undefined);
      });
    });

    describe('with an https PUBLIC_URL', () => {
      beforeEach(async () => {
        server = await startServer(store, { env: { PUBLIC_URL: 'https://l2.test' } });
        api = client(server.url);
        browser = new FormBrowser(server.url);
      });

      it('adds Secure to the l2_token cookie', async () => {
        await browser.get('/register');
        const response = await browser.submit('/auth/register', { username: 'alice', password: PASSWORD });
        const [cookie] = setCookies(response, 'l2_token');
        const attributes = cookie!
          .split(';')
          .slice(1)
          .map((a) => a.trim().toLowerCase());
        expect(attributes).to.include.members([
          'max-age=2592000',
          'path=/',
          'httponly',
          'samesite=lax',
          'secure',
        ]);
      });

      it('keeps Secure when clearing the cookie at logout', async () => {
        const token = await registerUser(server.url, 'alice');
        const response = await api.post('/auth/logout', undefined, { token });
        expect(setCookies(response, 'l2_token')[0]).to.match(/; Secure/);
      });
    });
  });
}
