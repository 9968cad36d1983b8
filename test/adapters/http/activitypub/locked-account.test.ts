// API.md §4.3 "New profile fields": `manually_approves_followers` — the PATCH, the JSON user, the form's checkbox and
// the actor's `manuallyApprovesFollowers` — from outside.
import { expect } from 'chai';
import { FormBrowser } from '../../../support/browser.js';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import { PASSWORD } from '../helpers.js';
import {
  AP_ACCEPT,
  expectAp,
  expectProblem,
  getAs,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

const JSON_ACCEPT = { headers: { accept: 'application/json' } };

for (const store of STORES) {
  describe(`a locked account's profile field (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let alice: string;

    const patch = (body: unknown) => api.send('PATCH', '/users/alice', body, { token: alice });
    const jsonUser = async () => (await api.get('/users/alice', JSON_ACCEPT)).json;
    const actor = async () => expectAp(await getAs(api, '/users/alice', AP_ACCEPT));

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice', PASSWORD);
    });
    afterEach(() => server?.close());

    it('is false until set: the JSON user says so and the actor does not ask for approval', async () => {
      expect((await jsonUser()).manually_approves_followers).to.equal(false);
      expect((await actor()).manuallyApprovesFollowers).to.equal(false);
    });

    it('is set by PATCH, answered in the JSON user, and shown as manuallyApprovesFollowers in the actor', async () => {
      const response = await patch({ manually_approves_followers: true });

      expect(response.status, response.text).to.equal(200);
      expect(response.json.manually_approves_followers).to.equal(true);
      expect((await jsonUser()).manually_approves_followers).to.equal(true);
      expect((await actor()).manuallyApprovesFollowers).to.equal(true);
      expect((await patch({ bio: 'other change' })).json.manually_approves_followers, 'kept').to.equal(true);
      expect((await patch({ manually_approves_followers: false })).json.manually_approves_followers).to.equal(
        false,
      );
      expect((await actor()).manuallyApprovesFollowers).to.equal(false);
    });

    it('answers 400 naming the field for a value that is not a boolean, and changes nothing', async () => {
      const problem = expectProblem(
        await patch({ manually_approves_followers: 'yes' }),
        400,
        'invalid_request',
      );

      expect(problem.errors.map((e: { path: string }) => e.path)).to.include('manually_approves_followers');
      expect((await jsonUser()).manually_approves_followers).to.equal(false);
    });

    it('is a checkbox of the edit form: ticked sets it, unticked (nothing sent) clears it', async () => {
      const browser = new FormBrowser(server.url);
      await browser.get('/login');
      expect(
        (await browser.submit('/auth/login', { username: 'alice', password: PASSWORD })).status,
      ).to.equal(303);
      const form = (await browser.get('/users/alice/edit')).text;
      expect(form).to.match(
        /<input id="manually_approves_followers" name="manually_approves_followers" type="checkbox" value="true"/,
      );
      expect(form).to.include('<label for="manually_approves_followers">');

      const ticked = await browser.submit('/users/alice', {
        _method: 'PATCH',
        manually_approves_followers: 'true',
      });
      expect(ticked.status, ticked.text).to.equal(303);
      expect((await jsonUser()).manually_approves_followers).to.equal(true);
      expect((await browser.get('/users/alice/edit')).text).to.match(
        /<input id="manually_approves_followers"[^>]*checked>/,
      );

      expect((await browser.submit('/users/alice', { _method: 'PATCH' })).status).to.equal(303);
      expect((await jsonUser()).manually_approves_followers).to.equal(false);
    });
  });
}
