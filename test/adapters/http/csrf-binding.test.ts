import { expect } from 'chai';
import { FormBrowser } from '../../support/browser.js';
import { request } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** A CSRF token works only with the cookie AND the session it was made for. */
describe('CSRF tokens are bound to the session', () => {
  let l2: TestServer;
  beforeEach(async () => (l2 = await startTestServer()));
  afterEach(async () => l2.close());

  async function signedIn(name: string): Promise<FormBrowser> {
    const browser = new FormBrowser(l2.url);
    await browser.get('/register');
    await browser.submit('/auth/register', { username: name, password: 'correct horse battery' });
    return browser;
  }

  it('refuses, for a signed-in request, the token of the page rendered before signing in', async () => {
    const browser = new FormBrowser(l2.url);
    await browser.get('/register');
    const signedOutToken = browser.csrfToken;
    await browser.submit('/auth/register', { username: 'alice', password: 'correct horse battery' });
    expect((await browser.submit('/auth/logout', { _csrf: signedOutToken })).status).to.equal(403);
    await browser.get('/');
    expect((await browser.submit('/auth/logout', {})).status).to.equal(303);
  });

  it("refuses another user's cookie-and-token pair planted in the victim's browser", async () => {
    const mallory = await signedIn('mallory');
    await mallory.get('/');
    const victim = await signedIn('victim');
    // Mallory plants her own l2_csrf cookie in the victim's browser and submits her own token.
    const cookie = `l2_token=${victim.cookie('l2_token')}; l2_csrf=${mallory.cookie('l2_csrf')}`;
    const forged = await request(
      'POST',
      `${l2.url}/auth/logout`,
      { _csrf: mallory.csrfToken, everywhere: 'true' },
      { form: true, headers: { cookie } },
    );
    expect(forged.status).to.equal(403);
    expect(forged.json.code).to.equal('csrf_failed');
  });
});
