import { createSign, generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import type { RevocationStore } from '../../../src/application/ports/revocation-store.js';
import type { Persistence } from '../../../src/application/ports/persistence.js';
import { forgeToken, validClaims } from '../../support/forge.js';
import { client, registerUser, type HttpResponse } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import {
  DAY_SECONDS,
  expectProblem,
  isoMillis,
  jwtPayload,
  keysOf,
  nowSeconds,
  startServer,
  STORES,
  THIRTY_DAYS_SECONDS,
} from './helpers.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A validClaims() set without some claims. */
function claimsWithout(...names: string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = validClaims();
  for (const name of names) delete claims[name];
  return claims;
}

/** A token with an RS256 header, signed by an attacker's own RSA key that the header embeds as a `jwk`. */
function attackerRs256Token(): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const header = { alg: 'RS256', typ: 'JWT', jwk: publicKey.export({ format: 'jwk' }) };
  const input = `${b64(header)}.${b64(validClaims())}`;
  const signature = createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url');
  return `${input}.${signature}`;
}

/** The failed-verify shape of API.md: 401 problem, `valid: false`, the code, and nothing about the token. */
function expectRefused(response: HttpResponse, code: string): void {
  expectProblem(response, 401, code);
  expect(response.json.valid).to.equal(false);
  expect(keysOf(response.json)).to.deep.equal(['code', 'detail', 'status', 'title', 'type', 'valid']);
  expect(response.text).to.not.match(/alice|"username"|"sub"|"jti"|"l2_server"|"exp"/);
  expect(response.headers.get('cache-control')).to.equal('no-store');
}

for (const store of STORES) {
  describe(`POST /auth/verify (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let alice: string;

    const verify = (token: unknown, l1Server?: unknown) =>
      api.post('/auth/verify', l1Server === undefined ? { token } : { token, l1_server: l1Server });

    afterEach(() => server?.close());

    describe('with a working store', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        alice = await registerUser(server.url, 'alice');
      });

      describe('a valid token', () => {
        it('answers 200 with exactly valid, username, l2_server, l1_server null, expires_at and amr', async () => {
          const response = await verify(alice);
          expect(response.status, response.text).to.equal(200);
          expect(response.headers.get('content-type')).to.match(/^application\/json/);
          expect(response.json.amr).to.deep.equal(['pwd']);
          expect(keysOf(response.json)).to.deep.equal([
            'amr',
            'expires_at',
            'l1_server',
            'l2_server',
            'username',
            'valid',
          ]);
          expect(response.json).to.include({
            valid: true,
            username: 'alice',
            l2_server: 'http://l2.test',
            l1_server: null,
          });
          expect(isoMillis(response.json.expires_at)).to.equal(jwtPayload(alice).exp * 1000);
          expect(response.headers.get('cache-control')).to.equal('no-store');
        });

        it('accepts an unscoped token with or without the l1_server of the caller', async () => {
          expect((await verify(alice)).status).to.equal(200);
          expect((await verify(alice, null)).status).to.equal(200);
          const withL1 = await verify(alice, 'https://l1.example');
          expect(withL1.status).to.equal(200);
          expect(withL1.json.l1_server).to.equal(null);
        });

        it('accepts a form-encoded body as well as JSON', async () => {
          const response = await api.post(
            '/auth/verify',
            { token: alice, l1_server: 'https://l1.example' },
            { form: true },
          );
          expect(response.status, response.text).to.equal(200);
          expect(response.json.valid).to.equal(true);
        });

        it('is stateless: a correctly signed token that was never issued verifies by its claims alone', async () => {
          const token = forgeToken(validClaims({ sub: 'ghost', username: 'ghost' }));
          const response = await verify(token);
          expect(response.status, response.text).to.equal(200);
          expect(response.json).to.include({ valid: true, username: 'ghost' });
        });

        it('compares the l1_server claim in its normalised form, however the signer spelled it', async () => {
          const token = forgeToken(validClaims({ l1_server: 'HTTPS://L1.Example:443/', sid: 'session-jti' }));
          for (const asked of ['https://l1.example', 'https://L1.EXAMPLE:443/']) {
            const response = await api.post('/auth/verify', { token, l1_server: asked });
            expect(response.status, response.text).to.equal(200);
            expect(response.json.l1_server).to.equal('https://l1.example');
          }
          expectProblem(
            await api.post('/auth/verify', { token, l1_server: 'https://l1.other' }),
            401,
            'token_scope_mismatch',
          );
        });

        it('refuses a correctly signed token whose l1_server claim is no L1 server URL (token_invalid)', async () => {
          for (const claim of [
            'not a url',
            'ftp://l1.example',
            'https://user@l1.example',
            'https://l1.example/?q=1',
          ]) {
            const token = forgeToken(validClaims({ l1_server: claim, sid: 'session-jti' }));
            expectProblem(
              await api.post('/auth/verify', { token, l1_server: 'https://l1.example' }),
              401,
              'token_invalid',
            );
          }
        });

        it('accepts a token issued slightly in the future (within the clock skew)', async () => {
          const now = nowSeconds();
          expect(
            (await verify(forgeToken(validClaims({ iat: now + 30, exp: now + 30 + DAY_SECONDS })))).status,
          ).to.equal(200);
        });
      });

      describe('forged and malformed tokens → 401 token_invalid, valid: false, no claims', () => {
        const realSignatureOf = (token: string) => token.split('.')[2] ?? '';

        for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
          it(`refuses alg "${alg}" with an empty signature`, async () => {
            expectRefused(
              await verify(forgeToken(validClaims(), { header: { alg, typ: 'JWT' }, signature: '' })),
              'token_invalid',
            );
          });
        }

        it('refuses alg "none" that keeps the original signature', async () => {
          const token = forgeToken(jwtPayload(alice), {
            header: { alg: 'none', typ: 'JWT' },
            signature: realSignatureOf(alice),
          });
          expectRefused(await verify(token), 'token_invalid');
        });

        it('refuses alg "none" with no third segment at all', async () => {
          const token = `${b64({ alg: 'none' })}.${b64(validClaims())}`;
          expectRefused(await verify(token), 'token_invalid');
        });

        for (const [alg, hmac] of [
          ['HS512', 'sha512'],
          ['HS384', 'sha384'],
        ] as const) {
          it(`refuses an ${alg} token signed with the real secret`, async () => {
            const token = forgeToken(validClaims(), { header: { alg, typ: 'JWT' }, hmac });
            expectRefused(await verify(token), 'token_invalid');
          });
        }

        for (const alg of ['RS256', 'ES256', 'PS256']) {
          it(`refuses an ${alg} header over an HMAC-SHA256 made with the real secret`, async () => {
            expectRefused(
              await verify(forgeToken(validClaims(), { header: { alg, typ: 'JWT' } })),
              'token_invalid',
            );
          });
        }

        it('refuses RS256 signed with an attacker key embedded in a jwk header', async () => {
          expectRefused(await verify(attackerRs256Token()), 'token_invalid');
        });

        it('refuses a tampered payload (sub and username changed) under the original signature', async () => {
          const claims = { ...jwtPayload(alice), sub: 'admin', username: 'admin' };
          expectRefused(
            await verify(forgeToken(claims, { signature: realSignatureOf(alice) })),
            'token_invalid',
          );
        });

        it('refuses a payload with an l1_server claim added under the original signature', async () => {
          const claims = { ...jwtPayload(alice), l1_server: 'https://l1.example' };
          expectRefused(
            await verify(forgeToken(claims, { signature: realSignatureOf(alice) })),
            'token_invalid',
          );
        });

        it('refuses a token signed with another secret', async () => {
          const token = forgeToken(validClaims(), { secret: 'another-secret-0123456789-abcdefghijklmnopq' });
          expectRefused(await verify(token), 'token_invalid');
        });

        it('refuses a token whose signature is cut short by one character', async () => {
          expectRefused(await verify(alice.slice(0, -1)), 'token_invalid');
        });

        for (const claim of ['jti', 'sub', 'username', 'l2_server', 'iss', 'iat', 'exp']) {
          it(`refuses a correctly signed token without ${claim}`, async () => {
            expectRefused(await verify(forgeToken(claimsWithout(claim))), 'token_invalid');
          });
        }

        const now = nowSeconds();
        for (const [label, overrides] of [
          ['exp as a string', { exp: String(now + DAY_SECONDS) }],
          ['exp null', { exp: null }],
          ['exp as a fraction', { exp: now + DAY_SECONDS + 0.5 }],
          ['exp of 1e20', { exp: 1e20 }],
          ['iat as a string', { iat: String(now) }],
          ['jti as a number', { jti: 12345 }],
          ['jti empty', { jti: '' }],
          ['sub as a number', { sub: 1, username: 1 }],
          ['username as an array', { username: ['alice'] }],
          ['l2_server as an object', { l2_server: { url: 'http://l2.test' } }],
        ] as const) {
          it(`refuses a correctly signed token with ${label}`, async () => {
            expectRefused(await verify(forgeToken(validClaims(overrides))), 'token_invalid');
          });
        }

        it('refuses a correctly signed payload that is a JSON array', async () => {
          expectRefused(await verify(forgeToken([1, 2])), 'token_invalid');
        });

        it('refuses a correctly signed payload that is a JSON string', async () => {
          expectRefused(await verify(forgeToken(JSON.stringify('hello'))), 'token_invalid');
        });

        it('refuses a correctly signed token whose l2_server is another service', async () => {
          const token = forgeToken(
            validClaims({ l2_server: 'http://other-l2.test', iss: 'http://other-l2.test' }),
          );
          expectRefused(await verify(token), 'token_invalid');
        });

        it('refuses a correctly signed token whose l2_server differs only by a trailing slash', async () => {
          expectRefused(
            await verify(forgeToken(validClaims({ l2_server: 'http://l2.test/' }))),
            'token_invalid',
          );
        });

        it('refuses a token that lives longer than 30 days (exp − iat > 30 days)', async () => {
          const iat = nowSeconds();
          expectRefused(
            await verify(forgeToken(validClaims({ iat, exp: iat + THIRTY_DAYS_SECONDS + 1 }))),
            'token_invalid',
          );
        });

        it('refuses a token issued far in the future', async () => {
          const iat = nowSeconds() + 3600;
          expectRefused(
            await verify(forgeToken(validClaims({ iat, exp: iat + DAY_SECONDS }))),
            'token_invalid',
          );
        });

        it('refuses a token not yet valid by its nbf', async () => {
          expectRefused(await verify(forgeToken(validClaims({ nbf: nowSeconds() + 3600 }))), 'token_invalid');
        });

        it('refuses a correctly signed token longer than 4096 characters', async () => {
          const token = forgeToken(validClaims({ padding: 'p'.repeat(4000) }));
          expect(token.length).to.be.greaterThan(4096);
          expectRefused(await verify(token), 'token_invalid');
        });

        it('refuses tokens with 2, 4 or 5 segments', async () => {
          const [h, p, s] = alice.split('.');
          for (const token of [`${h}.${p}`, `${h}.${p}.${s}.${s}`, `${h}.${p}.${s}.${s}.${s}`]) {
            expectRefused(await verify(token), 'token_invalid');
          }
        });

        it('refuses non-base64url characters, a "Bearer " prefix, surrounding spaces and plain garbage', async () => {
          for (const token of [
            alice.replace('.', '.+/'),
            `Bearer ${alice}`,
            `${alice} `,
            ` ${alice}`,
            `${alice}==`,
            'garbage',
            '...',
            '\u0000',
          ]) {
            expectRefused(await verify(token), 'token_invalid');
          }
        });
      });

      describe('expired tokens', () => {
        it('answers 401 token_expired, valid: false, for a correctly signed token past its exp', async () => {
          const now = nowSeconds();
          const token = forgeToken(validClaims({ iat: now - 31 * DAY_SECONDS, exp: now - DAY_SECONDS }));
          expectRefused(await verify(token), 'token_expired');
        });

        it('treats a token whose exp was one second ago as expired', async () => {
          const now = nowSeconds();
          const token = forgeToken(validClaims({ iat: now - DAY_SECONDS, exp: now - 1 }));
          expectRefused(await verify(token), 'token_expired');
        });

        it('reports an expired token with a bad signature as token_invalid (no claim is trusted before the signature)', async () => {
          const now = nowSeconds();
          const token = forgeToken(validClaims({ iat: now - 31 * DAY_SECONDS, exp: now - DAY_SECONDS }), {
            secret: 'another-secret-0123456789-abcdefghijklmnopq',
          });
          expectRefused(await verify(token), 'token_invalid');
        });
      });

      describe('scope (l1_server)', () => {
        let scoped: string;

        beforeEach(async () => {
          const attach = await api.post(
            '/renderers/attach',
            { l1_server: 'https://l1.example' },
            { token: alice },
          );
          expect(attach.status, attach.text).to.equal(201);
          scoped = attach.json.access_token;
        });

        for (const l1 of [
          'https://l1.example',
          'https://L1.Example:443/',
          'https://l1.example/',
          'https://l1.example/x/..',
          'HTTPS://L1.EXAMPLE',
        ]) {
          it(`verifies a token scoped to https://l1.example for ${l1}`, async () => {
            const response = await verify(scoped, l1);
            expect(response.status, response.text).to.equal(200);
            expect(response.json).to.include({
              valid: true,
              username: 'alice',
              l1_server: 'https://l1.example',
            });
          });
        }

        for (const [label, l1] of [
          ['another path', 'https://l1.example/a'],
          ['another scheme', 'http://l1.example'],
          ['another port', 'https://l1.example:8443'],
          ['a suffix domain', 'https://l1.example.evil.test'],
          ['another server', 'https://l1.other'],
        ] as const) {
          it(`refuses it with token_scope_mismatch for ${label} (${l1})`, async () => {
            expectRefused(await verify(scoped, l1), 'token_scope_mismatch');
          });
        }

        it('refuses it with token_scope_mismatch when l1_server is absent or null', async () => {
          expectRefused(await verify(scoped), 'token_scope_mismatch');
          expectRefused(await verify(scoped, null), 'token_scope_mismatch');
        });
      });

      describe('bad requests → 400 invalid_request', () => {
        it('refuses a body without a token', async () => {
          const body = expectProblem(await api.post('/auth/verify', {}), 400, 'invalid_request');
          expect(body.errors.map((e: { path: string }) => e.path)).to.include('token');
          expectProblem(
            await api.post('/auth/verify', { l1_server: 'https://l1.example' }),
            400,
            'invalid_request',
          );
          expectProblem(await api.post('/auth/verify'), 400, 'invalid_request');
        });

        for (const [label, token] of [
          ['an empty string', ''],
          ['a number', 123],
          ['null', null],
          ['an object', { $ne: null }],
          ['an array', ['a.b.c']],
        ] as const) {
          it(`refuses a token that is ${label}`, async () => {
            expectProblem(await verify(token), 400, 'invalid_request');
          });
        }

        for (const [label, l1] of [
          ['ftp scheme', 'ftp://x'],
          ['file scheme', 'file:///etc/passwd'],
          ['javascript scheme', 'javascript:alert(1)'],
          ['userinfo', 'https://a.example@evil.test'],
          ['query', 'https://a/?q=1'],
          ['fragment', 'https://a/#f'],
          ['fragment hiding userinfo', 'https://evil.test#@a.example'],
          ['not a URL', 'not-a-url'],
          ['empty string', ''],
          ['number', 42],
          ['array', ['https://l1.example']],
          ['object', { url: 'https://l1.example' }],
        ] as const) {
          it(`refuses a malformed l1_server: ${label}`, async () => {
            const body = expectProblem(await verify(alice, l1), 400, 'invalid_request');
            expect(body.errors.map((e: { path: string }) => e.path)).to.include('l1_server');
            expect(body).to.not.have.property('username');
          });
        }
      });

      describe('revocation', () => {
        it('answers 401 token_revoked, valid: false, for a token logged out', async () => {
          expect((await api.post('/auth/logout', undefined, { token: alice })).status).to.equal(200);
          expectRefused(await verify(alice), 'token_revoked');
        });

        it('answers token_revoked for a scoped token whose session logged out, at its own L1 server', async () => {
          const scoped = (
            await api.post('/renderers/attach', { l1_server: 'https://l1.example' }, { token: alice })
          ).json.access_token;
          await api.post('/auth/logout', undefined, { token: alice });
          expectRefused(await verify(scoped, 'https://l1.example'), 'token_revoked');
        });
      });

      describe('body handling', () => {
        it('answers 413 payload_too_large to a 1 MB body', async () => {
          const response = await api.post('/auth/verify', { token: 'x'.repeat(1024 * 1024) });
          expectProblem(response, 413, 'payload_too_large');
          expect(response.headers.get('cache-control')).to.equal('no-store');
        });

        it('answers 413 to a 1 MB body sent chunked, without a Content-Length', async () => {
          const bytes = new TextEncoder().encode(JSON.stringify({ token: 'x'.repeat(1024 * 1024) }));
          const response = await fetch(`${server.url}/auth/verify`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: new ReadableStream({
              start(controller) {
                controller.enqueue(bytes);
                controller.close();
              },
            }),
            duplex: 'half',
          } as RequestInit);
          expect(response.status).to.equal(413);
          expect(((await response.json()) as { code: string }).code).to.equal('payload_too_large');
        });

        it('answers 415 unsupported_media_type to a JSON body sent as text/plain', async () => {
          const response = await api.post('/auth/verify', undefined, {
            raw: JSON.stringify({ token: alice }),
            headers: { 'content-type': 'text/plain' },
          });
          expectProblem(response, 415, 'unsupported_media_type');
          expect(response.headers.get('cache-control')).to.equal('no-store');
        });

        it('answers 400 invalid_request to malformed JSON', async () => {
          const response = await api.post('/auth/verify', undefined, {
            raw: '{"token": "abc"',
            headers: { 'content-type': 'application/json' },
          });
          expectProblem(response, 400, 'invalid_request');
        });

        it('never answers 5xx to strange bodies', async () => {
          const deep = '['.repeat(5000) + ']'.repeat(5000);
          for (const raw of [
            deep,
            '{"token": 1e999999}',
            '{"token": "\\ud800"}',
            '{"token": "a", "token": "b"}',
            '{"__proto__": {"token": "x"}}',
            '{"constructor": {"prototype": {"valid": true}}}',
            'null',
            'true',
            '"a.b.c"',
            '',
          ]) {
            const response = await api.post('/auth/verify', undefined, {
              raw,
              headers: { 'content-type': 'application/json' },
            });
            expect(response.status, raw.slice(0, 40)).to.be.within(400, 499);
            expect(response.json?.valid).to.not.equal(true);
          }
        });
      });
    });

    describe('fails closed when the revocation records cannot be read', () => {
      const brokenRevocations: RevocationStore = {
        isRevoked: async () => {
          throw new Error('disk gone');
        },
        revoke: async () => 0,
        deleteExpired: async () => 0,
      };

      beforeEach(async () => {
        server = await startServer(store, {
          override: {
            store: (p) => ({ ...p.openedStore.persistence, revocations: brokenRevocations }),
          },
        });
        api = client(server.url);
        alice = await registerUser(server.url, 'alice');
      });

      it('answers 503 unavailable with Retry-After, never valid: true', async () => {
        const response = await verify(alice);
        expectProblem(response, 503, 'unavailable');
        expect(response.headers.get('retry-after')).to.match(/^\d+$/);
        expect(response.json.valid).to.not.equal(true);
        expect(response.text).to.not.include('disk gone');
      });

      it('answers 503 for a scoped token at its own L1 server too', async () => {
        const scoped = forgeToken(
          validClaims({
            l1_server: 'https://l1.example',
            sid: 'some-session',
            sub: 'alice',
            username: 'alice',
          }),
        );
        const response = await verify(scoped, 'https://l1.example');
        expectProblem(response, 503, 'unavailable');
      });

      it('does not let /auth/me through either', async () => {
        const response = await api.get('/auth/me', { token: alice });
        expectProblem(response, 503, 'unavailable');
      });
    });

    describe('fails closed when the store is closed under it', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        alice = await registerUser(server.url, 'alice');
        expect((await verify(alice)).status).to.equal(200);
        const persistence = server.parts.store as Persistence & { db?: { close(): void } };
        if (persistence.db) persistence.db.close();
        else await persistence.close();
      });

      it('answers 503 unavailable with Retry-After on /auth/verify', async () => {
        const response = await verify(alice);
        expectProblem(response, 503, 'unavailable');
        expect(response.headers.get('retry-after')).to.match(/^\d+$/);
        expect(response.json.valid).to.not.equal(true);
      });

      it('answers 503 on /readyz while /healthz stays 200', async () => {
        const ready = await api.get('/readyz');
        expectProblem(ready, 503, 'unavailable');
        expect(ready.headers.get('retry-after')).to.match(/^\d+$/);
        const health = await api.get('/healthz');
        expect(health.status).to.equal(200);
      });

      it('says nothing internal in the 503 body', async () => {
        const response = await verify(alice);
        expect(response.text).to.not.match(/sqlite|database|connection|stack|\.ts|node_modules/i);
      });
    });
  });
}
