import { expect } from 'chai';
import { BcryptPasswordHasher } from '../../../src/adapters/crypto/bcrypt-password-hasher.js';
import { client } from '../../support/http.js';
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

/** The real bcrypt hasher, counting how often a password is compared. */
class CountingHasher extends BcryptPasswordHasher {
  compares = 0;

  override verify(passwordBytes: Uint8Array, hash: string | null, clientAddress?: string): Promise<boolean> {
    this.compares++;
    return super.verify(passwordBytes, hash, clientAddress);
  }
}

for (const store of STORES) {
  describe(`POST /auth/login (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;

    const register = async (username: string, password: string) => {
      const response = await api.post('/auth/register', { username, password });
      expect(response.status, response.text).to.equal(201);
    };
    const login = (username: string, password: string, headers: Record<string, string> = {}) =>
      api.post('/auth/login', { username, password }, { headers });

    afterEach(() => server?.close());

    describe('with default limits', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        await register('alice', PASSWORD);
      });

      it('answers 200 with exactly username, access_token, token_type Bearer, expires_in 2592000 and expires_at', async () => {
        const response = await login('alice', PASSWORD);
        expect(response.status, response.text).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expect(keysOf(response.json)).to.deep.equal(
          ['access_token', 'expires_at', 'expires_in', 'token_type', 'username'].sort(),
        );
        expect(response.json).to.include({ username: 'alice', token_type: 'Bearer', expires_in: 2592000 });
        const claims = jwtPayload(response.json.access_token);
        expect(claims.exp - claims.iat).to.equal(THIRTY_DAYS_SECONDS);
        expect(isoMillis(response.json.expires_at)).to.equal(claims.exp * 1000);
        expect(response.headers.get('cache-control')).to.equal('no-store');
      });

      it('issues a token that /auth/verify accepts for the user', async () => {
        const token = (await login('alice', PASSWORD)).json.access_token;
        const verify = await api.post('/auth/verify', { token });
        expect(verify.status).to.equal(200);
        expect(verify.json.username).to.equal('alice');
      });

      it('issues a fresh token on every login (different token, different jti)', async () => {
        const first = (await login('alice', PASSWORD)).json.access_token as string;
        const second = (await login('alice', PASSWORD)).json.access_token as string;
        expect(first).to.not.equal(second);
        expect(jwtPayload(first).jti).to.not.equal(jwtPayload(second).jti);
      });

      it('finds the user whatever the case of the username', async () => {
        for (const name of ['Alice', 'ALICE', 'aLiCe']) {
          const response = await login(name, PASSWORD);
          expect(response.status, name).to.equal(200);
          expect(response.json.username).to.equal('alice');
        }
      });

      it('answers 401 invalid_credentials to a wrong password', async () => {
        const response = await login('alice', 'wrong password');
        expectProblem(response, 401, 'invalid_credentials');
        expect(response.headers.get('cache-control')).to.equal('no-store');
      });

      it('answers byte-identical bodies to an unknown user and to a wrong password', async () => {
        const unknown = await login('nobody', 'wrong password');
        const wrong = await login('alice', 'wrong password');
        expectProblem(unknown, 401, 'invalid_credentials');
        expect(unknown.status).to.equal(wrong.status);
        expect(unknown.text).to.equal(wrong.text);
        expect(unknown.headers.get('content-type')).to.equal(wrong.headers.get('content-type'));
      });

      it('answers an impossible username (bad characters) exactly like an unknown one', async () => {
        const invalid = await login('no such user!', 'wrong password');
        const unknown = await login('nobody', 'wrong password');
        expect(invalid.status).to.equal(401);
        expect(invalid.text).to.equal(unknown.text);
      });

      it('does not echo the password in a failed login', async () => {
        const response = await login('alice', 'Zq9-unique-login-marker');
        expect(response.status).to.equal(401);
        expect(response.text).to.not.include('Zq9-unique');
      });

      it('refuses a body without username or password with 400 invalid_request', async () => {
        const body = expectProblem(await api.post('/auth/login', {}), 400, 'invalid_request');
        const paths = body.errors.map((e: { path: string }) => e.path);
        expect(paths).to.include.members(['username', 'password']);
        expectProblem(
          await api.post('/auth/login', { username: 'alice', password: 42 }),
          400,
          'invalid_request',
        );
        expectProblem(
          await api.post('/auth/login', { username: ['alice'], password: PASSWORD }),
          400,
          'invalid_request',
        );
      });
    });

    describe('the 72-byte rule (only the first 72 UTF-8 bytes are hashed)', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
      });

      // 100 bytes, no repetition, so any prefix is distinct.
      const hundred = Array.from({ length: 100 }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join(
        '',
      );

      it('logs in with only the first 72 bytes of a 100-byte password', async () => {
        expect(Buffer.byteLength(hundred)).to.equal(100);
        await register('longpw', hundred);
        expect((await login('longpw', hundred)).status).to.equal(200);
        expect((await login('longpw', hundred.slice(0, 72))).status).to.equal(200);
      });

      it('refuses the first 71 bytes of that password', async () => {
        await register('longpw', hundred);
        expectProblem(await login('longpw', hundred.slice(0, 71)), 401, 'invalid_credentials');
      });

      it('logs in with the first 72 bytes followed by a different tail', async () => {
        await register('longpw', hundred);
        expect((await login('longpw', hundred.slice(0, 72) + 'a completely different tail')).status).to.equal(
          200,
        );
      });

      it('compares bytes, not characters, across a multi-byte character at byte 72', async () => {
        const a71 = 'a'.repeat(71);
        await register('multibyte', `${a71}é`); // é = C3 A9: byte 72 is 0xC3
        expect((await login('multibyte', `${a71}é`)).status).to.equal(200);
        // ê = C3 AA: the same first 72 bytes, so the same hashed password.
        expect((await login('multibyte', `${a71}ê`)).status).to.equal(200);
        expectProblem(await login('multibyte', `${a71}b`), 401, 'invalid_credentials');
        expectProblem(await login('multibyte', a71), 401, 'invalid_credentials');
      });

      it('treats 18 and 19 four-byte emoji as the same password (72 bytes either way)', async () => {
        await register('emoji', '😀'.repeat(18));
        expect((await login('emoji', '😀'.repeat(19))).status).to.equal(200);
        expectProblem(await login('emoji', '😀'.repeat(17)), 401, 'invalid_credentials');
      });

      it('refuses a password with a NUL character (bcrypt stops there): 400 on register and on login, no hash compared', async () => {
        for (const password of ['abc\u0000defgh', '\u0000'.repeat(8), 'password\u0000']) {
          const registered = await api.post('/auth/register', { username: 'nul', password });
          expectProblem(registered, 400, 'invalid_request');
          expect(registered.json.errors).to.deep.equal([
            { path: 'password', message: 'A password cannot contain the NUL character.' },
          ]);
          expectProblem(await login('alice', password), 400, 'invalid_request');
        }
        expectProblem(await login('nul', 'abc\u0000defgh'), 400, 'invalid_request');
        expectProblem(await login('nul', 'abcdefgh'), 401, 'invalid_credentials');
      });
    });

    describe('passwords that are not text', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
      });

      it('refuses a password with unpaired surrogates (they all hash alike): 400 on register and on login', async () => {
        for (const password of ['\ud800'.repeat(8), 'abcdefgh\udc00', '\udbff'.repeat(9)]) {
          const registered = await api.post('/auth/register', { username: 'surrogate', password });
          expectProblem(registered, 400, 'invalid_request');
          expect(registered.json.errors).to.deep.equal([
            { path: 'password', message: 'A password must be valid Unicode text (no unpaired surrogates).' },
          ]);
          expectProblem(await login('surrogate', password), 400, 'invalid_request');
        }
        // An emoji is a surrogate pair: a whole character.
        expect(
          (await api.post('/auth/register', { username: 'emoji_pw', password: '😀'.repeat(8) })).status,
        ).to.equal(201);
      });
    });

    describe('rate limiting per username', () => {
      let hasher: CountingHasher;

      beforeEach(async () => {
        hasher = new CountingHasher(4);
        server = await startServer(store, {
          env: { LOGIN_MAX_FAILURES_PER_USERNAME: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' },
          override: { passwordHasher: () => hasher },
        });
        api = client(server.url);
        await register('alice', PASSWORD);
      });

      it('answers 429 rate_limited with Retry-After after 3 failures for the username', async () => {
        for (let i = 0; i < 3; i++)
          expectProblem(await login('alice', `wrong ${i}`), 401, 'invalid_credentials');
        const limited = await login('alice', 'wrong again');
        expectProblem(limited, 429, 'rate_limited');
        const retryAfter = limited.headers.get('retry-after');
        expect(retryAfter).to.match(/^\d+$/);
        expect(Number(retryAfter)).to.be.within(1, 900);
        expect(limited.headers.get('cache-control')).to.equal('no-store');
      });

      it('refuses the correct password too while limited, without comparing it with bcrypt', async () => {
        for (let i = 0; i < 3; i++) await login('alice', `wrong ${i}`);
        const comparesBefore = hasher.compares;
        expectProblem(await login('alice', PASSWORD), 429, 'rate_limited');
        expectProblem(await login('alice', 'wrong again'), 429, 'rate_limited');
        expect(hasher.compares).to.equal(comparesBefore);
      });

      it('keys the limit on the normalised username, so case variants share one budget', async () => {
        await login('Alice', 'wrong 1');
        await login('ALICE', 'wrong 2');
        await login('alice', 'wrong 3');
        expectProblem(await login('aLiCe', PASSWORD), 429, 'rate_limited');
      });

      it('limits an unknown username the same way as a real one', async () => {
        for (let i = 0; i < 3; i++)
          expectProblem(await login('ghost', `wrong ${i}`), 401, 'invalid_credentials');
        expectProblem(await login('ghost', 'wrong'), 429, 'rate_limited');
      });

      it('does not limit other usernames', async () => {
        await register('bob', PASSWORD);
        for (let i = 0; i < 3; i++) await login('alice', `wrong ${i}`);
        expect((await login('bob', PASSWORD)).status).to.equal(200);
      });

      it('does not count successful logins as failures', async () => {
        for (let i = 0; i < 5; i++) expect((await login('alice', PASSWORD)).status).to.equal(200);
        expectProblem(await login('alice', 'wrong'), 401, 'invalid_credentials');
      });
    });

    describe('rate limiting per username behind a proxy', () => {
      beforeEach(async () => {
        server = await startServer(store, {
          env: {
            LOGIN_MAX_FAILURES_PER_USERNAME: '3',
            LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
            TRUST_PROXY: 'true',
          },
        });
        api = client(server.url);
        await register('alice', PASSWORD);
      });

      it('is not reset by rotating the client address (X-Forwarded-For)', async () => {
        for (let i = 0; i < 3; i++) {
          await login('alice', `wrong ${i}`, { 'x-forwarded-for': `203.0.113.${i + 1}` });
        }
        expectProblem(
          await login('alice', PASSWORD, { 'x-forwarded-for': '198.51.100.77' }),
          429,
          'rate_limited',
        );
      });
    });

    describe('rate limiting per client address behind a proxy', () => {
      beforeEach(async () => {
        server = await startServer(store, {
          env: {
            LOGIN_MAX_FAILURES_PER_USERNAME: '1000',
            LOGIN_MAX_FAILURES_PER_ADDRESS: '2',
            TRUST_PROXY: 'true',
          },
        });
        api = client(server.url);
      });

      const failFrom = (forwardedFor: string, name = 'nobody') =>
        login(name, 'wrong password', { 'x-forwarded-for': forwardedFor });

      it('counts the address the proxy saw (right-most hop), not the left-most one the client wrote', async () => {
        // The client forges a fresh left-most entry each time; the proxy appends the real address.
        expectProblem(await failFrom('1.1.1.1, 198.51.100.7'), 401, 'invalid_credentials');
        expectProblem(await failFrom('2.2.2.2, 198.51.100.7'), 401, 'invalid_credentials');
        expectProblem(await failFrom('3.3.3.3, 198.51.100.7'), 429, 'rate_limited');
        // Another real client behind the same proxy still has its own allowance.
        expectProblem(await failFrom('3.3.3.3, 198.51.100.8'), 401, 'invalid_credentials');
      });

      it('counts IPv6 clients per /64, and an IPv4-mapped address as its IPv4 address', async () => {
        expectProblem(await failFrom('2001:db8:5:6::1'), 401, 'invalid_credentials');
        expectProblem(await failFrom('2001:db8:5:6:ffff:eeee:dddd:cccc'), 401, 'invalid_credentials');
        expectProblem(await failFrom('2001:db8:5:6::99'), 429, 'rate_limited');
        expectProblem(await failFrom('2001:db8:5:7::1'), 401, 'invalid_credentials');

        expectProblem(await failFrom('192.0.2.9'), 401, 'invalid_credentials');
        expectProblem(await failFrom('::ffff:192.0.2.9'), 401, 'invalid_credentials');
        expectProblem(await failFrom('192.0.2.9'), 429, 'rate_limited');
      });
    });

    describe('rate limiting per IPv6 home (/56) and site (/48) behind a proxy', () => {
      beforeEach(async () => {
        server = await startServer(store, {
          env: {
            LOGIN_MAX_FAILURES_PER_USERNAME: '1000',
            LOGIN_MAX_FAILURES_PER_ADDRESS: '2',
            LOGIN_MAX_FAILURES_PER_56: '3',
            LOGIN_MAX_FAILURES_PER_48: '5',
            TRUST_PROXY: 'true',
          },
        });
        api = client(server.url);
        await register('alice', PASSWORD);
      });

      const from = (forwardedFor: string, username = 'nobody', password = 'wrong password') =>
        login(username, password, { 'x-forwarded-for': forwardedFor });

      it('counts every /64 of a /56 against the home, and every /56 of a /48 against the site', async () => {
        for (const address of ['2001:db8:5:1::1', '2001:db8:5:2::1', '2001:db8:5:3::1'])
          expectProblem(await from(address), 401, 'invalid_credentials');
        const home = await from('2001:db8:5:4::1');
        expectProblem(home, 429, 'rate_limited');
        expect(Number(home.headers.get('retry-after'))).to.be.within(1, 900);
        expectProblem(await from('2001:db8:5:100::1'), 401, 'invalid_credentials');
        expectProblem(await from('2001:db8:5:200::1', 'alice', PASSWORD), 429, 'rate_limited');
        // Another site, and IPv4 clients, have budgets of their own.
        expect((await from('2001:db8:6::1', 'alice', PASSWORD)).status).to.equal(200);
        expectProblem(await from('192.0.2.9'), 401, 'invalid_credentials');
      });

      it('gives a successful login its attempt back on the home and the site too', async () => {
        expectProblem(await from('2001:db8:9:1::1'), 401, 'invalid_credentials');
        for (let i = 0; i < 5; i++)
          expect((await from(`2001:db8:9:${i + 2}::1`, 'alice', PASSWORD)).status).to.equal(200);
        expectProblem(await from('2001:db8:9:10::1'), 401, 'invalid_credentials');
      });
    });

    describe('rate limiting per client address', () => {
      let hasher: CountingHasher;

      beforeEach(async () => {
        hasher = new CountingHasher(4);
        server = await startServer(store, {
          env: { LOGIN_MAX_FAILURES_PER_USERNAME: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '3' },
          override: { passwordHasher: () => hasher },
        });
        api = client(server.url);
        await register('alice', PASSWORD);
      });

      it('answers 429 with Retry-After after 3 failures from one address over different usernames', async () => {
        expectProblem(await login('user_a', 'wrong'), 401, 'invalid_credentials');
        expectProblem(await login('user_b', 'wrong'), 401, 'invalid_credentials');
        expectProblem(await login('alice', 'wrong'), 401, 'invalid_credentials');
        const limited = await login('user_d', 'wrong');
        expectProblem(limited, 429, 'rate_limited');
        expect(limited.headers.get('retry-after')).to.match(/^[1-9]\d*$/);
      });

      it('ignores X-Forwarded-For without TRUST_PROXY: a forged header does not buy more attempts', async () => {
        for (let i = 0; i < 3; i++) {
          expectProblem(
            await login(`user_${i}`, 'wrong', { 'x-forwarded-for': `203.0.113.${i}` }),
            401,
            'invalid_credentials',
          );
        }
        expectProblem(
          await login('user_x', 'wrong', { 'x-forwarded-for': '203.0.113.99' }),
          429,
          'rate_limited',
        );
      });

      it('refuses a correct login from that address while limited, without running bcrypt', async () => {
        for (const name of ['user_a', 'user_b', 'user_c']) await login(name, 'wrong');
        const comparesBefore = hasher.compares;
        expectProblem(await login('alice', PASSWORD), 429, 'rate_limited');
        expect(hasher.compares).to.equal(comparesBefore);
      });
    });
  });
}
