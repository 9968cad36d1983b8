// The browser's way through two-step sign-in, recovery codes and passkeys — forms posted with the CSRF token of the
// page, cookies kept — and where the secrets go: each is on the one page that shows it, never on a later page, in a
// URL or in a header.
import { expect } from 'chai';
import { FormBrowser } from '../../support/browser.js';
import { FixedClock } from '../../support/fixed-clock.js';
import type { HttpResponse, RequestOptions } from '../../support/http.js';
import { request } from '../../support/http.js';
import { codeAt } from '../../support/rfc6238.js';
import { SoftAuthenticator } from '../../support/soft-authenticator.js';
import { TEST_PUBLIC_URL, type TestServer } from '../../support/test-server.js';
import { PASSWORD, startServer, STORES } from './helpers.js';

/** A form browser that keeps every answer it got, to look for secrets in all of them afterwards. */
class RecordingBrowser extends FormBrowser {
  readonly seen: { what: string; response: HttpResponse }[] = [];

  override async get(path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const response = await super.get(path, options);
    this.seen.push({ what: `GET ${path}`, response });
    return response;
  }

  override async submit(path: string, fields: Record<string, string>, options: RequestOptions = {}) {
    const response = await super.submit(path, fields, options);
    this.seen.push({ what: `POST ${path}`, response });
    return response;
  }

  /** Everything of an answer but its body: what ends up in histories, logs and other sites' referrers. */
  static outside(response: HttpResponse): string {
    return [...response.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  }
}

const hiddenField = (html: string, name: string): string =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

for (const store of STORES) {
  describe(`the pages of account security (${store})`, () => {
    let server: TestServer;
    let clock: FixedClock;
    let browser: RecordingBrowser;

    beforeEach(async () => {
      clock = new FixedClock(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 5_000));
      server = await startServer(store, { override: { clock: () => clock } });
      browser = new RecordingBrowser(server.url);
      await browser.get('/register');
      const registered = await browser.submit('/auth/register', { username: 'alice', password: PASSWORD });
      expect(registered.status).to.equal(303);
    });
    afterEach(() => server?.close());

    /** The secret of the set-up page, as the person reads it (spaces between groups). */
    const secretOn = (html: string): string => {
      const shown = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(html);
      if (!shown?.[1]) throw new Error('no secret on the page');
      return shown[1];
    };
    const codesOn = (html: string): string[] =>
      [...html.matchAll(/<li><code>([0-9a-z-]+)<\/code><\/li>/g)].map((m) => m[1]!);

    async function turnOn(): Promise<{ secret: string; codes: string[] }> {
      await browser.get('/account');
      const setup = await browser.submit('/auth/totp/setup', {});
      expect(setup.status, setup.text).to.equal(200);
      expect(setup.text).to.match(
        /<img class="qr-code" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="QR code/,
      );
      const secret = secretOn(setup.text).replace(/ /g, '');
      const on = await browser.submit('/auth/totp', {
        code: codeAt(secret, clock.now()),
        current_password: PASSWORD,
      });
      expect(on.status, on.text).to.equal(200);
      const codes = codesOn(on.text);
      expect(codes).to.have.length(10);
      return { secret, codes };
    }

    it('shows the secret and the QR code once, and the recovery codes once: no later page, URL or header holds them', async () => {
      const { secret, codes } = await turnOn();
      const afterCodes = browser.seen.length;
      const account = await browser.get('/account');
      expect(account.text).to.contain('<strong>On</strong> since');
      expect(account.text).to.match(/You have <strong>10<\/strong> unused recovery codes/);
      expect(account.text).to.contain('Two-step sign-in turned on');
      await browser.submit('/auth/logout', {});
      await browser.get('/login');
      const step = await browser.submit('/auth/login', {
        username: 'alice',
        password: PASSWORD,
        next: '/account',
      });
      clock.advance(30_000);
      await browser.submit('/auth/login/mfa', {
        challenge: hiddenField(step.text, 'challenge'),
        next: '/account',
        code: codeAt(secret, clock.now()),
      });
      await browser.get('/account');

      const grouped = secret.match(/.{1,4}/g)!.join(' ');
      for (const { what, response } of browser.seen) {
        const outside = RecordingBrowser.outside(response);
        for (const form of [secret, grouped, secret.toLowerCase()])
          expect(outside, what).not.to.contain(form);
        for (const code of codes) expect(outside, what).not.to.contain(code);
      }
      const setupPages = browser.seen.filter(({ response }) => response.text.includes(grouped));
      expect(setupPages.map((s) => s.what)).to.deep.equal(['POST /auth/totp/setup']);
      for (const { what, response } of browser.seen.slice(afterCodes)) {
        expect(response.text, what).not.to.contain(secret);
        for (const code of codes) expect(response.text, what).not.to.contain(code);
      }
    });

    it('shows the set-up form again without the secret when the code is wrong, and turns nothing on', async () => {
      await browser.get('/account');
      const setup = await browser.submit('/auth/totp/setup', {});
      const secret = secretOn(setup.text).replace(/ /g, '');
      const right = codeAt(secret, clock.now());
      const refused = await browser.submit('/auth/totp', {
        code: right === '000000' ? '111111' : '000000',
        current_password: PASSWORD,
      });
      expect(refused.status).to.equal(400);
      expect(refused.text).to.match(/role="alert">code: That is not the code the app shows now/);
      expect(refused.text).not.to.contain(secretOn(setup.text));
      expect(refused.text).not.to.contain('qr-code');
      const on = await browser.submit('/auth/totp', { code: right, current_password: PASSWORD });
      expect(on.status, on.text).to.equal(200);
    });

    it('signs in through the second step’s page: a wrong code shows it again, the right one sets the cookie', async () => {
      const { secret, codes } = await turnOn();
      await browser.submit('/auth/logout', {});
      await browser.get('/login?next=%2Faccount');
      const step = await browser.submit('/auth/login', {
        username: 'alice',
        password: PASSWORD,
        next: '/account',
      });
      expect(step.status).to.equal(200);
      expect(step.text).to.contain('<h1>Two-step sign-in</h1>');
      expect(step.text).to.contain('autocomplete="one-time-code"');
      expect(browser.cookie('l2_token')).to.equal(undefined);
      const challenge = hiddenField(step.text, 'challenge');
      expect(challenge).to.have.length.above(40);

      clock.advance(30_000);
      const right = codeAt(secret, clock.now());
      const wrong = await browser.submit('/auth/login/mfa', {
        challenge,
        next: '/account',
        code: right === '000000' ? '111111' : '000000',
      });
      expect(wrong.status).to.equal(401);
      expect(wrong.text).to.contain('role="alert"');
      expect(hiddenField(wrong.text, 'challenge')).to.equal(challenge);
      const signedIn = await browser.submit('/auth/login/mfa', { challenge, next: '/account', code: right });
      expect(signedIn.status, signedIn.text).to.equal(303);
      expect(signedIn.headers.get('location')).to.equal('/account');
      expect(browser.cookie('l2_token')).to.be.a('string');

      await browser.submit('/auth/logout', {});
      await browser.get('/login');
      const again = await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
      const byCode = await browser.submit('/auth/login/mfa', {
        challenge: hiddenField(again.text, 'challenge'),
        next: '/',
        recovery_code: codes[3]!,
      });
      expect(byCode.status, byCode.text).to.equal(303);
      expect((await browser.get('/account')).text).to.contain('A recovery code was used to sign in');
    });

    it('sends a person whose step expired back to the login page', async () => {
      const { secret } = await turnOn();
      await browser.submit('/auth/logout', {});
      await browser.get('/login');
      const step = await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
      clock.advance(5 * 60_000);
      const late = await browser.submit('/auth/login/mfa', {
        challenge: hiddenField(step.text, 'challenge'),
        next: '/',
        code: codeAt(secret, clock.now()),
      });
      expect(late.status).to.equal(401);
      expect(late.text).to.contain('<h1>Log in</h1>');
      expect(late.text).to.contain('This sign-in has expired or was completed already');
    });

    it('makes new recovery codes and turns two-step sign-in off from the Account page, with the password', async () => {
      const { codes } = await turnOn();
      await browser.get('/account');
      const wrong = await browser.submit('/auth/recovery-codes', { current_password: 'not it' });
      expect(wrong.status).to.equal(401);
      expect(wrong.text).to.contain('<h1>Account</h1>');
      const renewed = await browser.submit('/auth/recovery-codes', { current_password: PASSWORD });
      expect(renewed.status).to.equal(200);
      const fresh = codesOn(renewed.text);
      expect(fresh).to.have.length(10);
      expect(fresh.some((c) => codes.includes(c))).to.equal(false);
      expect(renewed.text).to.contain('Your earlier codes no longer work');

      await browser.get('/account');
      const off = await browser.submit('/auth/totp/disable', { current_password: PASSWORD });
      expect(off.status).to.equal(303);
      expect(off.headers.get('location')).to.equal('/account?done=totp-off');
      const account = await browser.get('/account?done=totp-off');
      expect(account.text).to.contain('Two-step sign-in is off.');
      expect(account.text).to.contain('Set up two-step sign-in');
    });

    it('refuses every security form without its CSRF token', async () => {
      await browser.get('/account');
      for (const path of ['/auth/totp/setup', '/auth/totp/disable', '/auth/recovery-codes', '/auth/passkeys'])
        expect((await browser.submit(path, { _csrf: '', current_password: PASSWORD })).status, path).to.equal(
          403,
        );
    });

    it('adds a passkey from the Account page, signs in with it from the login page, and removes it', async () => {
      const phone = new SoftAuthenticator(TEST_PUBLIC_URL);
      await browser.get('/account');
      // What the page's script does: the options with the form's CSRF token, the browser's credential as JSON text.
      const options = await request('POST', `${server.url}/auth/passkeys/options`, undefined, {
        headers: {
          cookie: browser.cookieHeader(),
          'x-csrf-token': browser.csrfToken,
          accept: 'application/json',
        },
      });
      expect(options.status, options.text).to.equal(200);
      const added = await browser.submit('/auth/passkeys', {
        name: 'Phone',
        response: JSON.stringify(phone.register(options.json)),
        current_password: PASSWORD,
      });
      expect(added.status, added.text).to.equal(303);
      expect(added.headers.get('location')).to.equal('/account?done=passkey-added');
      const account = await browser.get('/account?done=passkey-added');
      expect(account.text).to.contain('Your passkey was added.');
      expect(account.text).to.match(/<strong>Phone<\/strong>\s*<span class="badge">this device only<\/span>/);
      expect(account.text).to.contain('Passkey added: Phone');

      await browser.submit('/auth/logout', {});
      await browser.get('/login');
      const signInOptions = await request('POST', `${server.url}/auth/login/passkey/options`);
      const signedIn = await browser.submit('/auth/login/passkey', {
        response: JSON.stringify(phone.signIn(signInOptions.json)),
        next: '/account',
      });
      expect(signedIn.status, signedIn.text).to.equal(303);
      expect(signedIn.headers.get('location')).to.equal('/account');
      const mine = await browser.get('/account');
      expect(mine.text).to.contain('Signed in as');

      const id = /action="\/auth\/passkeys\/([^"]+)\/remove"/.exec(mine.text)![1]!;
      const removed = await browser.submit(`/auth/passkeys/${id}/remove`, { current_password: PASSWORD });
      expect(removed.status, removed.text).to.equal(303);
      expect((await browser.get('/account?done=passkey-removed')).text).to.contain(
        'You have no passkey yet.',
      );

      await browser.submit('/auth/logout', {});
      await browser.get('/login');
      const refused = await browser.submit('/auth/login/passkey', {
        response: JSON.stringify(
          phone.signIn((await request('POST', `${server.url}/auth/login/passkey/options`)).json),
        ),
      });
      expect(refused.status).to.equal(401);
      expect(refused.text).to.contain('<h1>Log in</h1>');
      expect(refused.text).to.contain('The passkey was not accepted.');
    });
  });
}
