import { expect } from 'chai';
import { FormBrowser } from '../../../support/browser.js';
import { client, request } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import { PASSWORD } from '../helpers.js';
import { contentHash, expectHtml, expectProblem, startServer, STORES, type Api } from './support.js';

const JSON_ACCEPT = { headers: { accept: 'application/json' } };

for (const store of STORES) {
  describe(`asset forms from a browser (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let browser: FormBrowser;

    /** A browser signed in through the register form, holding a CSRF token from a rendered page. */
    async function signedInBrowser(username: string): Promise<FormBrowser> {
      const b = new FormBrowser(server.url);
      await b.get('/register');
      const registered = await b.submit('/auth/register', { username, password: PASSWORD });
      expect(registered.status, registered.text).to.equal(303);
      expect(b.cookie('l2_token')).to.be.a('string');
      const page = await b.get('/registry');
      expect(page.status).to.equal(200);
      expect(b.csrfToken, 'a _csrf field on the signed-in registry page').to.not.equal('');
      return b;
    }

    const sunsetForm = {
      name: 'sunset',
      content_hash: contentHash('sunset'),
      media_type: 'image/png',
      url: 'https://cdn.example/sunset.png',
      description: 'Red sky',
      tags: 'art, sky',
    };

    /** A form post carrying the browser's cookies but no _csrf field. */
    const postWithoutCsrf = (path: string, fields: Record<string, string>) =>
      request('POST', server.url + path, fields, {
        form: true,
        headers: { accept: 'text/html', cookie: browser.cookieHeader() },
      });

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      browser = await signedInBrowser('alice');
    });
    afterEach(() => server?.close());

    it('POST /assets as a form answers 303 to /assets/<name> and registers the asset for the signed-in user', async () => {
      const response = await browser.submit('/assets', sunsetForm);
      expect(response.status, response.text).to.equal(303);
      expect(response.headers.get('location')).to.equal('/assets/sunset');
      const asset = (await api.get('/assets/sunset', JSON_ACCEPT)).json;
      expect(asset).to.deep.include({
        name: 'sunset',
        owner: 'alice',
        url: 'https://cdn.example/sunset.png',
        description: 'Red sky',
        tags: ['art', 'sky'],
      });
      const page = await browser.get('/assets/sunset');
      expectHtml(page);
      expect(page.text).to.include('Red sky');
    });

    it('an empty url form field registers the asset without a url', async () => {
      const response = await browser.submit('/assets', { ...sunsetForm, url: '' });
      expect(response.status, response.text).to.equal(303);
      expect((await api.get('/assets/sunset', JSON_ACCEPT)).json.url).to.equal(null);
    });

    it('POST /assets/{name} with _method=PATCH answers 303 and changes the asset', async () => {
      await browser.submit('/assets', sunsetForm);
      const response = await browser.submit('/assets/sunset', {
        _method: 'PATCH',
        description: 'Purple sky',
        tags: 'dusk,violet',
        url: 'https://cdn.example/sunset2.png',
        media_type: 'image/webp',
      });
      expect(response.status, response.text).to.equal(303);
      expect(response.headers.get('location')).to.equal('/assets/sunset');
      const asset = (await api.get('/assets/sunset', JSON_ACCEPT)).json;
      expect(asset).to.deep.include({
        description: 'Purple sky',
        tags: ['dusk', 'violet'],
        url: 'https://cdn.example/sunset2.png',
        media_type: 'image/webp',
      });
      const activity = (await api.get('/activities/1', JSON_ACCEPT)).json;
      expect(activity).to.include({ type: 'Update', actor: 'alice', object: 'sunset' });
    });

    it('POST /assets/{name} with _method=DELETE answers 303 and deletes the asset', async () => {
      await browser.submit('/assets', sunsetForm);
      const response = await browser.submit('/assets/sunset', { _method: 'DELETE' });
      expect(response.status, response.text).to.equal(303);
      expect(response.headers.get('location')).to.be.a('string').and.match(/^\//);
      expectProblem(await api.get('/assets/sunset', JSON_ACCEPT), 410, 'gone');
      const activity = (await api.get('/activities/1', JSON_ACCEPT)).json;
      expect(activity).to.include({ type: 'Delete', actor: 'alice', object: 'sunset' });
    });

    for (const method of ['PUT', 'POST', 'GET', 'patch', '']) {
      it(`POST /assets/{name} with _method=${JSON.stringify(method)} answers 400 and changes nothing`, async () => {
        await browser.submit('/assets', sunsetForm);
        const response = await browser.submit('/assets/sunset', { _method: method, description: 'changed' });
        expect(response.status, response.text).to.equal(400);
        expect((await api.get('/assets/sunset', JSON_ACCEPT)).json.description).to.equal('Red sky');
      });
    }

    it('answers 403 csrf_failed to a cookie-authenticated POST /assets without _csrf', async () => {
      const response = await postWithoutCsrf('/assets', sunsetForm);
      expect(response.status, response.text).to.equal(403);
      expect((await api.get('/assets/sunset', JSON_ACCEPT)).status).to.equal(404);
    });

    it('answers 403 csrf_failed in problem+json when the client prefers JSON', async () => {
      const response = await request('POST', `${server.url}/assets`, sunsetForm, {
        form: true,
        headers: { accept: 'application/json', cookie: browser.cookieHeader() },
      });
      expectProblem(response, 403, 'csrf_failed');
    });

    it('answers 403 to _method=PATCH and _method=DELETE without _csrf, and changes nothing', async () => {
      await browser.submit('/assets', sunsetForm);
      for (const fields of [{ _method: 'PATCH', description: 'forged' }, { _method: 'DELETE' }] as Record<
        string,
        string
      >[]) {
        const response = await postWithoutCsrf('/assets/sunset', fields);
        expect(response.status, `${fields._method}: ${response.text}`).to.equal(403);
      }
      const asset = await api.get('/assets/sunset', JSON_ACCEPT);
      expect(asset.status).to.equal(200);
      expect(asset.json.description).to.equal('Red sky');
    });

    it('a cookie-authenticated JSON request needs the X-CSRF-Token header for POST, PATCH and DELETE', async () => {
      const cookieJson = (method: string, path: string, body: unknown, csrf?: string) =>
        request(method, server.url + path, body, {
          headers: {
            accept: 'application/json',
            cookie: browser.cookieHeader(),
            ...(csrf ? { 'x-csrf-token': csrf } : {}),
          },
        });
      const body = { ...sunsetForm, tags: ['art'] };
      expectProblem(await cookieJson('POST', '/assets', body), 403, 'csrf_failed');
      const created = await cookieJson('POST', '/assets', body, browser.csrfToken);
      expect(created.status, created.text).to.equal(201);
      expect(created.json.owner).to.equal('alice');
      expectProblem(await cookieJson('PATCH', '/assets/sunset', { description: 'x' }), 403, 'csrf_failed');
      expectProblem(await cookieJson('DELETE', '/assets/sunset', undefined), 403, 'csrf_failed');
      const patched = await cookieJson('PATCH', '/assets/sunset', { description: 'x' }, browser.csrfToken);
      expect(patched.status, patched.text).to.equal(200);
      const deleted = await cookieJson('DELETE', '/assets/sunset', undefined, browser.csrfToken);
      expect(deleted.status, deleted.text).to.equal(200);
    });

    it('answers 403 to a wrong _csrf token', async () => {
      const response = await browser.submit('/assets', { ...sunsetForm, _csrf: 'forged-token' });
      expect(response.status).to.equal(403);
    });

    it("answers 403 forbidden to another user's _method=DELETE form", async () => {
      await browser.submit('/assets', sunsetForm);
      const bob = await signedInBrowser('bob');
      const response = await bob.submit(
        '/assets/sunset',
        { _method: 'DELETE' },
        {
          headers: { accept: 'application/json' },
        },
      );
      expectProblem(response, 403, 'forbidden');
      expect((await api.get('/assets/sunset', JSON_ACCEPT)).status).to.equal(200);
    });

    it('answers a form post with an invalid field with a 400 HTML page', async () => {
      const response = await browser.submit('/assets', { ...sunsetForm, url: 'javascript:alert(1)' });
      expectHtml(response, 400);
      expect((await api.get('/assets/sunset', JSON_ACCEPT)).status).to.equal(404);
    });

    it('re-renders the asset form on a failed form post, with the message in role="alert" and the entered values kept (API.md §0, §6)', async () => {
      const response = await browser.submit('/assets', { ...sunsetForm, url: 'javascript:alert(1)' });
      const html = expectHtml(response, 400);
      expect(html).to.match(/role="alert"/);
      expect(html).to.match(/<form[^>]*action="\/assets"/);
      expect(html).to.include('value="sunset"');
      expect(html).to.include(sunsetForm.content_hash);
    });
  });
}
