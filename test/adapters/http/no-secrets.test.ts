// Nothing any client can read holds a credential: no private key, no password hash, no password, no JWT secret —
// on any page or JSON answer, signed in or not, in every representation.
import { expect } from 'chai';
import { client, registerUser } from '../../support/http.js';
import { codeAt } from '../../support/rfc6238.js';
import { SoftAuthenticator } from '../../support/soft-authenticator.js';
import { TEST_PUBLIC_URL, TEST_SECRET, type TestServer } from '../../support/test-server.js';
import { normaliseUsername, type Username } from '../../../src/domain/user.js';
import { AP_ACCEPT, createAsset } from './registry/support.js';
import { startServer, STORES } from './helpers.js';

const normalised = (name: string) => (normaliseUsername(name) as { value: Username }).value;

/** Not the README's example password, which the home page shows. */
const SECRET_PASSWORD = 'a passphrase no page prints 42';
const SECRETS = [/PRIVATE KEY/, /\$2[abxy]?\$\d\d\$/, new RegExp(SECRET_PASSWORD), new RegExp(TEST_SECRET)];
const ACCEPTS = ['text/html', 'application/json', AP_ACCEPT];

for (const store of STORES) {
  describe(`no credential in any answer (${store})`, () => {
    let server: TestServer;
    afterEach(() => server?.close());

    it('shows no private key, password hash, password or secret on any route, to anyone, in any form', async () => {
      server = await startServer(store);
      const api = client(server.url);
      const alice = await registerUser(server.url, 'alice', SECRET_PASSWORD);
      await createAsset(api, alice, 'sunset');
      // Two-step sign-in and a passkey: neither the TOTP secret, nor a recovery code or its hash, nor the passkey's
      // public key is anywhere after the answers that set them up.
      const setup = (await api.post('/auth/totp/setup', undefined, { token: alice })).json;
      const on = await api.post(
        '/auth/totp',
        { code: codeAt(setup.secret, new Date()), current_password: SECRET_PASSWORD },
        { token: alice },
      );
      const recoveryCodes = on.json.recovery_codes as string[];
      const options = (await api.post('/auth/passkeys/options', undefined, { token: alice })).json;
      const response = new SoftAuthenticator(TEST_PUBLIC_URL).register(options);
      const added = await api.post(
        '/auth/passkeys',
        { name: 'Phone', response, current_password: SECRET_PASSWORD },
        { token: alice },
      );
      expect(added.status, added.text).to.equal(201);
      const stored = await server.parts.store.accountSecurity.factors(normalised('alice'));
      const secrets = [
        ...SECRETS,
        new RegExp(setup.secret),
        new RegExp(setup.secret.match(/.{1,4}/g).join(' ')),
        ...recoveryCodes.map((code) => new RegExp(code)),
        ...stored.recoveryCodes.map((code) => new RegExp(code.hash)),
        new RegExp(stored.passkeys[0]!.publicKey),
        new RegExp(stored.passkeys[0]!.userHandle),
      ];
      const paths = [
        '/',
        '/users',
        '/users/alice',
        '/users/alice/outbox',
        '/users/alice/outbox?page=true',
        '/users/alice/followers',
        '/users/alice/following',
        '/registry',
        '/activities',
        '/activities/0',
        '/assets/sunset',
        '/actor',
        '/auth/me',
        '/auth/sessions',
        '/auth/security',
        '/account',
        '/login',
        '/renderers',
        '/openapi.json',
        '/metrics',
        '/nodeinfo/2.1',
        '/.well-known/webfinger?resource=acct:alice@l2.test',
      ];
      let read = 0;
      for (const path of paths)
        for (const accept of ACCEPTS)
          for (const token of [undefined, alice]) {
            const response = await api.get(path, { token, headers: { accept } });
            read++;
            for (const secret of secrets)
              expect(response.text, `${path} (${accept}, ${token ? 'signed in' : 'anonymous'})`).not.to.match(
                secret,
              );
          }
      expect(read).to.equal(paths.length * ACCEPTS.length * 2);
    });
  });
}
