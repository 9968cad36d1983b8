import { expect } from 'chai';
import { client, type HttpResponse } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import {
  expectProblem,
  isoMillis,
  jwtPayload,
  keysOf,
  PASSWORD,
  startServer,
  STORES,
  THIRTY_DAYS_SECONDS,
} from './helpers.js';

for (const store of STORES) {
  describe(`POST /auth/register (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
    });
    afterEach(() => server.close());

    /** Expects `400 invalid_request` whose `errors` name `path`. */
    function expectInvalid(response: HttpResponse, path: string): void {
      const body = expectProblem(response, 400, 'invalid_request');
      expect(body.errors).to.be.an('array').that.is.not.empty;
      for (const error of body.errors) expect(error).to.have.all.keys('path', 'message');
      expect(body.errors.map((e: { path: string }) => e.path)).to.include(path);
    }

    describe('success', () => {
      it('answers 201 with exactly the fields of API.md, the username lower-cased', async () => {
        const before = Date.now();
        const response = await api.post('/auth/register', { username: 'Alice_01', password: PASSWORD });
        expect(response.status, response.text).to.equal(201);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expect(keysOf(response.json)).to.deep.equal(
          ['access_token', 'actor', 'created_at', 'expires_at', 'token_type', 'username', 'webfinger'].sort(),
        );
        expect(response.json).to.include({
          username: 'alice_01',
          actor: 'http://l2.test/users/alice_01',
          webfinger: 'acct:alice_01@l2.test',
          token_type: 'Bearer',
        });
        const createdAt = isoMillis(response.json.created_at);
        expect(createdAt).to.be.within(before - 1000, Date.now() + 1000);
      });

      it('expires the session token 30 days after issue, and expires_at matches its exp claim', async () => {
        const response = await api.post('/auth/register', { username: 'alice', password: PASSWORD });
        expect(response.status).to.equal(201);
        const claims = jwtPayload(response.json.access_token);
        expect(claims.exp - claims.iat).to.equal(THIRTY_DAYS_SECONDS);
        expect(isoMillis(response.json.expires_at)).to.equal(claims.exp * 1000);
        expect(isoMillis(response.json.expires_at) - Date.now()).to.be.within(
          THIRTY_DAYS_SECONDS * 1000 - 5000,
          THIRTY_DAYS_SECONDS * 1000 + 1000,
        );
      });

      it('issues a session token with exactly the claims of API.md and amr (no l1_server, no sid)', async () => {
        const response = await api.post('/auth/register', { username: 'Alice', password: PASSWORD });
        const claims = jwtPayload(response.json.access_token);
        expect(keysOf(claims)).to.deep.equal([
          'amr',
          'exp',
          'iat',
          'iss',
          'jti',
          'l2_server',
          'sub',
          'username',
        ]);
        expect(claims.amr).to.deep.equal(['pwd']);
        expect(claims).to.include({
          sub: 'alice',
          username: 'alice',
          l2_server: 'http://l2.test',
          iss: 'http://l2.test',
        });
        expect(claims.jti).to.be.a('string').and.not.equal('');
        const header = JSON.parse(
          Buffer.from(response.json.access_token.split('.')[0], 'base64url').toString(),
        );
        expect(header.alg).to.equal('HS256');
      });

      it('issues a token that works at once: /auth/me names the new user and /auth/verify accepts it', async () => {
        const response = await api.post('/auth/register', { username: 'Bob', password: PASSWORD });
        const token = response.json.access_token as string;
        const me = await api.get('/auth/me', { token });
        expect(me.status).to.equal(200);
        expect(me.json.username).to.equal('bob');
        const verify = await api.post('/auth/verify', { token });
        expect(verify.status).to.equal(200);
        expect(verify.json).to.include({ valid: true, username: 'bob' });
      });

      it('signs the user in with the password given at registration', async () => {
        await api.post('/auth/register', { username: 'carol', password: PASSWORD });
        const login = await api.post('/auth/login', { username: 'carol', password: PASSWORD });
        expect(login.status).to.equal(200);
      });

      it('answers with Cache-Control: no-store', async () => {
        const response = await api.post('/auth/register', { username: 'dave', password: PASSWORD });
        expect(response.status).to.equal(201);
        expect(response.headers.get('cache-control')).to.equal('no-store');
      });

      it('accepts usernames of exactly 3 and 30 characters of [a-z0-9_]', async () => {
        expect((await api.post('/auth/register', { username: 'a_1', password: PASSWORD })).status).to.equal(
          201,
        );
        const thirty = 'z'.repeat(29) + '9';
        const response = await api.post('/auth/register', { username: thirty, password: PASSWORD });
        expect(response.status).to.equal(201);
        expect(response.json.username).to.equal(thirty);
      });

      it('accepts a password of exactly 8 and exactly 4096 characters', async () => {
        expect(
          (await api.post('/auth/register', { username: 'eight', password: '12345678' })).status,
        ).to.equal(201);
        const long = await api.post('/auth/register', { username: 'long_pw', password: 'p'.repeat(4096) });
        expect(long.status).to.equal(201);
      });

      it('counts password characters as code points, so 8 emoji are a valid password', async () => {
        const response = await api.post('/auth/register', { username: 'emoji', password: '🔑'.repeat(8) });
        expect(response.status, response.text).to.equal(201);
      });
    });

    describe('username taken', () => {
      it('answers 409 username_taken for a name already registered', async () => {
        await api.post('/auth/register', { username: 'alice', password: PASSWORD });
        const response = await api.post('/auth/register', {
          username: 'alice',
          password: 'another password',
        });
        const body = expectProblem(response, 409, 'username_taken');
        expect(body.detail).to.equal("The username 'alice' is already registered.");
        expect(response.headers.get('cache-control')).to.equal('no-store');
      });

      it('treats a case variant as the same name: Alice after alice is 409', async () => {
        await api.post('/auth/register', { username: 'alice', password: PASSWORD });
        expectProblem(
          await api.post('/auth/register', { username: 'Alice', password: PASSWORD }),
          409,
          'username_taken',
        );
        expectProblem(
          await api.post('/auth/register', { username: 'ALICE', password: PASSWORD }),
          409,
          'username_taken',
        );
      });

      it('keeps the first account: the loser of a 409 cannot log in with its password', async () => {
        await api.post('/auth/register', { username: 'alice', password: PASSWORD });
        await api.post('/auth/register', { username: 'ALICE', password: 'the other password' });
        expect((await api.post('/auth/login', { username: 'alice', password: PASSWORD })).status).to.equal(
          200,
        );
        expect(
          (await api.post('/auth/login', { username: 'alice', password: 'the other password' })).status,
        ).to.equal(401);
      });

      it('gives exactly one of 20 concurrent registrations of one name a 201 and the other 19 a 409', async () => {
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            api.post('/auth/register', { username: i % 2 ? 'racer' : 'RACER', password: `password-${i}` }),
          ),
        );
        const statuses = responses.map((r) => r.status);
        expect(statuses.filter((s) => s === 201)).to.have.length(1);
        expect(statuses.filter((s) => s === 409)).to.have.length(19);
        for (const r of responses.filter((x) => x.status === 409)) expectProblem(r, 409, 'username_taken');
        // The one account is the winner's: its password logs in.
        const winner = responses.findIndex((r) => r.status === 201);
        const login = await api.post('/auth/login', { username: 'racer', password: `password-${winner}` });
        expect(login.status).to.equal(200);
      });
    });

    describe('invalid input', () => {
      it('refuses a username shorter than 3 characters with errors[].path "username"', async () => {
        expectInvalid(await api.post('/auth/register', { username: 'ab', password: PASSWORD }), 'username');
      });

      it('refuses a username longer than 30 characters', async () => {
        expectInvalid(
          await api.post('/auth/register', { username: 'a'.repeat(31), password: PASSWORD }),
          'username',
        );
      });

      for (const username of [
        'al-ice',
        'al ice',
        'alice!',
        'al.ice',
        'ålice',
        'аlice',
        'al\u202eice',
        '<script>',
        '',
      ]) {
        it(`refuses the username ${JSON.stringify(username)} (characters outside [a-z0-9_])`, async () => {
          expectInvalid(await api.post('/auth/register', { username, password: PASSWORD }), 'username');
        });
      }

      it('refuses a username that only lower-cases into [a-z] through Unicode (Kelvin sign K)', async () => {
        expectInvalid(
          await api.post('/auth/register', { username: '\u212Aelvin', password: PASSWORD }),
          'username',
        );
      });

      it('refuses a password shorter than 8 characters with errors[].path "password"', async () => {
        expectInvalid(
          await api.post('/auth/register', { username: 'alice', password: '1234567' }),
          'password',
        );
      });

      it('refuses a password over 4096 characters', async () => {
        expectInvalid(
          await api.post('/auth/register', { username: 'alice', password: 'p'.repeat(4097) }),
          'password',
        );
      });

      it('refuses missing fields, naming each of them', async () => {
        const empty = await api.post('/auth/register', {});
        expectInvalid(empty, 'username');
        expectInvalid(empty, 'password');
        expectInvalid(await api.post('/auth/register', { username: 'alice' }), 'password');
        expectInvalid(await api.post('/auth/register', { password: PASSWORD }), 'username');
      });

      for (const [label, value] of [
        ['a number', 12345],
        ['an array', ['alice']],
        ['an object', { name: 'alice' }],
        ['null', null],
        ['a boolean', true],
      ] as const) {
        it(`refuses a username that is ${label}`, async () => {
          expectInvalid(
            await api.post('/auth/register', { username: value, password: PASSWORD }),
            'username',
          );
        });

        it(`refuses a password that is ${label}`, async () => {
          expectInvalid(await api.post('/auth/register', { username: 'alice', password: value }), 'password');
        });
      }

      it('creates no account after a refused registration', async () => {
        await api.post('/auth/register', { username: 'alice', password: 'short' });
        const response = await api.post('/auth/register', { username: 'alice', password: PASSWORD });
        expect(response.status).to.equal(201);
      });

      it('answers every refusal with Cache-Control: no-store', async () => {
        const response = await api.post('/auth/register', { username: 'x', password: 'y' });
        expect(response.status).to.equal(400);
        expect(response.headers.get('cache-control')).to.equal('no-store');
      });
    });

    describe('URLs built from PUBLIC_URL', () => {
      for (const [publicUrl, actor, webfinger] of [
        ['http://l2.test:8080', 'http://l2.test:8080/users/alice', 'acct:alice@l2.test:8080'],
        ['https://l2.test/', 'https://l2.test/users/alice', 'acct:alice@l2.test'],
        ['https://example.test/l2/', 'https://example.test/l2/users/alice', 'acct:alice@example.test'],
      ] as const) {
        it(`builds actor ${actor} and webfinger ${webfinger} from PUBLIC_URL=${publicUrl}`, async () => {
          const other = await startServer(store, { env: { PUBLIC_URL: publicUrl } });
          try {
            const response = await client(other.url).post('/auth/register', {
              username: 'alice',
              password: PASSWORD,
            });
            expect(response.status).to.equal(201);
            expect(response.json).to.include({ actor, webfinger });
            expect(jwtPayload(response.json.access_token).l2_server).to.equal(publicUrl.replace(/\/$/, ''));
          } finally {
            await other.close();
          }
        });
      }
    });

    describe('the password never appears in a response', () => {
      const secret = 'Zq9-unique-pw-marker';

      it('is absent from the 201, the 409 and every 400', async () => {
        const responses = [
          await api.post('/auth/register', { username: 'alice', password: secret }),
          await api.post('/auth/register', { username: 'alice', password: secret }),
          await api.post('/auth/register', { username: 'a!', password: secret }),
          await api.post('/auth/register', { username: 'bob', password: secret.slice(0, 7) }),
          await api.post('/auth/register', { username: 'bob', password: secret.repeat(300) }),
        ];
        expect(responses.map((r) => r.status)).to.deep.equal([201, 409, 400, 400, 400]);
        for (const response of responses) {
          expect(response.text).to.not.include(secret.slice(0, 7));
          for (const [, value] of response.headers) expect(value).to.not.include(secret.slice(0, 7));
        }
      });
    });
  });
}
