import { expect } from 'chai';
import { FormBrowser } from '../../support/browser.js';
import { request } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A browser gets a page with the right status for every status the API can answer. */
describe('error pages for browsers', () => {
  let l2: TestServer;
  afterEach(async () => l2?.close());

  const page = async (method: string, path: string, init: { body?: string; type?: string } = {}) => {
    const response = await request(method, `${l2.url}${path}`, undefined, {
      raw: init.body,
      headers: { accept: BROWSER, ...(init.type ? { 'content-type': init.type } : {}) },
    });
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(response.text).to.match(/<h1>\d{3} /);
    expect(response.text).to.contain('<nav');
    return response;
  };

  it('renders 400, 401, 403, 404, 405, 410, 413 and 415 as pages with that status', async () => {
    l2 = await startTestServer();
    const browser = new FormBrowser(l2.url);
    await browser.get('/register');
    await browser.submit('/auth/register', { username: 'alice', password: 'correct horse' });
    await browser.get('/assets/new');
    await browser.submit('/assets', {
      name: 'gone',
      content_hash: `sha256:${'a'.repeat(64)}`,
      media_type: 'image/png',
    });
    await browser.get('/assets/gone');
    await browser.submit('/assets/gone', { _method: 'DELETE' });

    expect((await page('GET', '/activities/abc')).status).to.equal(400);
    expect((await page('GET', '/auth/me')).status).to.equal(401);
    expect(
      (
        await page('POST', '/auth/login', {
          body: 'username=a&password=b',
          type: 'application/x-www-form-urlencoded',
        })
      ).status,
    ).to.equal(403);
    expect((await page('GET', '/nowhere')).status).to.equal(404);
    expect((await page('GET', '/auth/login')).status).to.equal(405);
    expect((await browser.get('/assets/gone')).status).to.equal(410);
    expect(
      (
        await page('POST', '/auth/verify', {
          body: JSON.stringify({ token: 'x'.repeat(70_000) }),
          type: 'application/json',
        })
      ).status,
    ).to.equal(413);
    expect((await page('POST', '/auth/verify', { body: 'token', type: 'text/plain' })).status).to.equal(415);
  });

  it('re-renders forms for 409 and 429 with the message in an alert', async () => {
    l2 = await startTestServer({ env: { LOGIN_MAX_FAILURES_PER_USERNAME: '1' } });
    const browser = new FormBrowser(l2.url);
    await browser.get('/register');
    await browser.submit('/auth/register', { username: 'alice', password: 'correct horse' });
    const anonymous = new FormBrowser(l2.url);
    await anonymous.get('/register');
    const taken = await anonymous.submit('/auth/register', { username: 'alice', password: 'correct horse' });
    expect(taken.status).to.equal(409);
    expect(taken.text).to.match(/role="alert">[^<]*already registered/);
    await anonymous.get('/login');
    await anonymous.submit('/auth/login', { username: 'alice', password: 'wrong one' });
    const limited = await anonymous.submit('/auth/login', { username: 'alice', password: 'wrong one' });
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
    expect(limited.text).to.match(/role="alert">[^<]*Too many failed logins/);
  });

  it('renders 500 and 503 pages that say nothing about the cause', async () => {
    l2 = await startTestServer({
      override: {
        store: (p) => ({
          ...p.openedStore.persistence,
          users: {
            ...p.openedStore.persistence.users,
            count: async () => {
              throw new Error('secret internals: /var/lib/db');
            },
          },
        }),
      },
    });
    const broken = await page('GET', '/');
    expect(broken.status).to.equal(500);
    expect(broken.text).not.to.contain('secret internals');

    await l2.close();
    l2 = await startTestServer({ store: 'sqlite', storeInternals: true });
    (l2.parts.store as unknown as { db: { close(): void } }).db.close();
    const down = await page('GET', '/');
    expect(down.status).to.equal(503);
    expect(down.headers.get('retry-after')).to.equal('5');
  });
});
