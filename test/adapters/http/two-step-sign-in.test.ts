import { expect } from 'chai';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { client, registerUser } from '../../support/http.js';
import { codeAt, secretOfUri } from '../../support/rfc6238.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, isoMillis, jwtPayload, PASSWORD, startServer, STORES } from './helpers.js';

const STEP_MS = 30_000;

for (const store of STORES) {
  describe(`two-step sign-in: TOTP and recovery codes (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let clock: FixedClock;
    let alice: string;

    const start = async (env: Record<string, string> = {}) => {
      // A clock the test moves in 30-second steps, so every code is computed for a time the test knows.
      clock = new FixedClock(new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + 5_000));
      server = await startServer(store, { env, override: { clock: () => clock } });
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
    };
    afterEach(() => server?.close());

    /** Turns two-step sign-in on for alice; the secret as her app holds it and her recovery codes. */
    async function enable(): Promise<{ secret: string; recoveryCodes: string[] }> {
      const setup = await api.post('/auth/totp/setup', undefined, { token: alice });
      expect(setup.status, setup.text).to.equal(200);
      const secret = secretOfUri(setup.json.otpauth_uri);
      expect(secret).to.equal(setup.json.secret);
      const enabled = await api.post(
        '/auth/totp',
        { code: codeAt(secret, clock.now()), current_password: PASSWORD },
        { token: alice },
      );
      expect(enabled.status, enabled.text).to.equal(200);
      return { secret, recoveryCodes: enabled.json.recovery_codes };
    }

    const login = (password = PASSWORD) => api.post('/auth/login', { username: 'alice', password });
    const challengeOf = async (): Promise<string> => {
      const answer = await login();
      return expectProblem(answer, 401, 'mfa_required').challenge;
    };
    /** A step later: the next code of the app. */
    const nextStep = () => clock.advance(STEP_MS);

    describe('turning it on', () => {
      beforeEach(() => start());

      it('shows a secret that protects nothing until a code of the app confirms it', async () => {
        const setup = await api.post('/auth/totp/setup', undefined, { token: alice });
        expect(setup.status, setup.text).to.equal(200);
        expect(setup.json.otpauth_uri).to.match(/^otpauth:\/\/totp\/.*alice\?/);
        const uri = new URL(setup.json.otpauth_uri);
        expect(uri.searchParams.get('issuer')).to.equal('L2 (l2.test)');
        expect(uri.searchParams.get('digits')).to.equal('6');
        expect(uri.searchParams.get('period')).to.equal('30');
        expect(setup.json.secret).to.match(/^[A-Z2-7]{32}$/);

        const security = await api.get('/auth/security', { token: alice });
        expect(security.json.second_factor).to.deep.equal({ enabled: false, enabled_at: null });
        expect((await login()).status).to.equal(200);
      });

      it('refuses a wrong code and a wrong password, turning nothing on', async () => {
        const setup = await api.post('/auth/totp/setup', undefined, { token: alice });
        const secret = setup.json.secret as string;
        const right = codeAt(secret, clock.now());
        const wrong = right === '000000' ? '000001' : '000000';

        const wrongCode = await api.post(
          '/auth/totp',
          { code: wrong, current_password: PASSWORD },
          { token: alice },
        );
        expect(expectProblem(wrongCode, 400, 'invalid_request').errors[0].path).to.equal('code');
        const wrongPassword = await api.post(
          '/auth/totp',
          { code: right, current_password: 'not the password' },
          { token: alice },
        );
        expectProblem(wrongPassword, 401, 'invalid_credentials');
        const neither = await api.post('/auth/totp', { code: right }, { token: alice });
        expectProblem(neither, 400, 'invalid_request');

        expect((await api.get('/auth/security', { token: alice })).json.second_factor.enabled).to.equal(
          false,
        );
        expect((await login()).status).to.equal(200);
      });

      it('turns it on with ten distinct recovery codes, and the history says when and from where', async () => {
        const { recoveryCodes } = await enable();

        expect(recoveryCodes).to.have.length(10);
        expect(new Set(recoveryCodes).size).to.equal(10);
        for (const code of recoveryCodes)
          expect(code).to.match(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
        const security = await api.get('/auth/security', { token: alice });
        expect(security.json.second_factor.enabled).to.equal(true);
        expect(isoMillis(security.json.second_factor.enabled_at)).to.equal(clock.now().getTime());
        expect(security.json.recovery_codes_left).to.equal(10);
        expect(security.json.history).to.deep.equal([
          {
            kind: 'second_factor_enabled',
            detail: null,
            at: clock.now().toISOString(),
            address: '127.0.0.1',
          },
        ]);
      });

      it("ends the account's other sessions and what they scoped to L1 servers, not the asking session's", async () => {
        const l1 = await new FakeL1Server().start();
        try {
          const other = (await login()).json.access_token as string;
          const attach = (token: string) =>
            api
              .post('/renderers/attach', { l1_server: l1.url }, { token })
              .then((r) => r.json.access_token as string);
          const othersScoped = await attach(other);
          const ownScoped = await attach(alice);
          const setup = await api.post('/auth/totp/setup', undefined, { token: alice });
          const enabled = await api.post(
            '/auth/totp',
            { code: codeAt(setup.json.secret, clock.now()), current_password: PASSWORD },
            { token: alice },
          );
          expect(enabled.status, enabled.text).to.equal(200);
          expect(enabled.json.ended_sessions).to.equal(1);
          const verify = (token: string, l1Server?: string) =>
            api.post('/auth/verify', l1Server ? { token, l1_server: l1Server } : { token });
          expectProblem(await verify(other), 401, 'token_revoked');
          expectProblem(await verify(othersScoped, l1.url), 401, 'token_revoked');
          expect((await verify(alice)).status).to.equal(200);
          expect((await verify(ownScoped, l1.url)).status).to.equal(200);
          await l1.waitForNotices(1);
          expect(l1.notices).to.have.length(1);
        } finally {
          await l1.stop();
        }
      });

      it('refuses to set it up again while it is on', async () => {
        await enable();
        expectProblem(
          await api.post('/auth/totp/setup', undefined, { token: alice }),
          409,
          'already_enabled',
        );
      });
    });

    describe('signing in', () => {
      let secret: string;
      let recoveryCodes: string[];
      beforeEach(async () => {
        await start();
        ({ secret, recoveryCodes } = await enable());
        nextStep();
      });

      it('answers a right password with mfa_required and a short-lived step, and no token', async () => {
        const answer = await login();
        const problem = expectProblem(answer, 401, 'mfa_required');
        expect(problem.challenge).to.be.a('string').with.length.above(40);
        expect(isoMillis(problem.expires_at)).to.equal(clock.now().getTime() + 5 * 60_000);
        expect(problem.methods).to.deep.equal(['totp', 'recovery_code']);
        expect(answer.text).not.to.match(/access_token/);
        expectProblem(await login('wrong password'), 401, 'invalid_credentials');
      });

      it('signs in with the code of the app: amr pwd, otp, mfa on the token, in verify and in me', async () => {
        const challenge = await challengeOf();
        const answer = await api.post('/auth/login/mfa', { challenge, code: codeAt(secret, clock.now()) });

        expect(answer.status, answer.text).to.equal(200);
        expect(answer.json.amr).to.deep.equal(['pwd', 'otp', 'mfa']);
        const token = answer.json.access_token as string;
        expect(jwtPayload(token).amr).to.deep.equal(['pwd', 'otp', 'mfa']);
        const verified = await api.post('/auth/verify', { token });
        expect(verified.json.amr).to.deep.equal(['pwd', 'otp', 'mfa']);
        expect((await api.get('/auth/me', { token })).json.token.amr).to.deep.equal(['pwd', 'otp', 'mfa']);
      });

      it('gives a token scoped to an L1 server the amr of its session', async () => {
        const l1 = await new FakeL1Server().start();
        try {
          const challenge = await challengeOf();
          const session = (
            await api.post('/auth/login/mfa', { challenge, code: codeAt(secret, clock.now()) })
          ).json.access_token as string;
          const attached = await api.post('/renderers/attach', { l1_server: l1.url }, { token: session });
          expect(attached.status, attached.text).to.equal(201);
          const scoped = attached.json.access_token as string;
          expect(jwtPayload(scoped).amr).to.deep.equal(['pwd', 'otp', 'mfa']);
          const verified = await api.post('/auth/verify', { token: scoped, l1_server: l1.url });
          expect(verified.status, verified.text).to.equal(200);
          expect(verified.json.amr).to.deep.equal(['pwd', 'otp', 'mfa']);
          expect((await api.get('/auth/me', { token: scoped })).json.token.amr).to.deep.equal([
            'pwd',
            'otp',
            'mfa',
          ]);
        } finally {
          await l1.stop();
        }
      });

      it('accepts a code once: the same code in another sign-in is refused, and so is an older one', async () => {
        const code = codeAt(secret, clock.now());
        const first = await api.post('/auth/login/mfa', { challenge: await challengeOf(), code });
        expect(first.status, first.text).to.equal(200);

        const replay = await api.post('/auth/login/mfa', { challenge: await challengeOf(), code });
        expectProblem(replay, 401, 'invalid_credentials');
        const older = codeAt(secret, new Date(clock.now().getTime() - STEP_MS));
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: await challengeOf(), code: older }),
          401,
          'invalid_credentials',
        );
        nextStep();
        const fresh = await api.post('/auth/login/mfa', {
          challenge: await challengeOf(),
          code: codeAt(secret, clock.now()),
        });
        expect(fresh.status, fresh.text).to.equal(200);
      });

      it('uses a step once: completing it twice is refused, and so is a step five minutes old', async () => {
        const challenge = await challengeOf();
        expect(
          (await api.post('/auth/login/mfa', { challenge, code: codeAt(secret, clock.now()) })).status,
        ).to.equal(200);
        nextStep();
        expectProblem(
          await api.post('/auth/login/mfa', { challenge, code: codeAt(secret, clock.now()) }),
          401,
          'challenge_expired',
        );

        const old = await challengeOf();
        clock.advance(5 * 60_000);
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: old, code: codeAt(secret, clock.now()) }),
          401,
          'challenge_expired',
        );
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: 'made-up', code: codeAt(secret, clock.now()) }),
          401,
          'challenge_expired',
        );
      });

      it('signs in with each recovery code once, and the history records each use', async () => {
        const [first, second] = recoveryCodes as [string, string];
        const one = await api.post('/auth/login/mfa', {
          challenge: await challengeOf(),
          recovery_code: first,
        });
        expect(one.status, one.text).to.equal(200);
        expect(one.json.amr).to.deep.equal(['pwd', 'otp', 'mfa']);
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: await challengeOf(), recovery_code: first }),
          401,
          'invalid_credentials',
        );
        // As a person may type it: capitals, spaces instead of hyphens.
        const typed = second.toUpperCase().replace(/-/g, ' ');
        const two = await api.post('/auth/login/mfa', {
          challenge: await challengeOf(),
          recovery_code: typed,
        });
        expect(two.status, two.text).to.equal(200);

        const security = await api.get('/auth/security', { token: alice });
        expect(security.json.recovery_codes_left).to.equal(8);
        expect(security.json.history.map((e: { kind: string }) => e.kind)).to.deep.equal([
          'recovery_code_used',
          'recovery_code_used',
          'second_factor_enabled',
        ]);
      });

      it('makes new recovery codes: the old ones die, the new ones work', async () => {
        const refused = await api.post(
          '/auth/recovery-codes',
          { current_password: 'wrong' },
          { token: alice },
        );
        expectProblem(refused, 401, 'invalid_credentials');
        const renewed = await api.post(
          '/auth/recovery-codes',
          { current_password: PASSWORD },
          { token: alice },
        );
        expect(renewed.status, renewed.text).to.equal(200);
        const fresh = renewed.json.recovery_codes as string[];
        expect(fresh).to.have.length(10);
        expect(fresh.filter((c) => recoveryCodes.includes(c))).to.deep.equal([]);

        expectProblem(
          await api.post('/auth/login/mfa', {
            challenge: await challengeOf(),
            recovery_code: recoveryCodes[0],
          }),
          401,
          'invalid_credentials',
        );
        const signedIn = await api.post('/auth/login/mfa', {
          challenge: await challengeOf(),
          recovery_code: fresh[0],
        });
        expect(signedIn.status, signedIn.text).to.equal(200);
        const kinds = (await api.get('/auth/security', { token: alice })).json.history.map(
          (e: { kind: string }) => e.kind,
        );
        expect(kinds).to.deep.equal([
          'recovery_code_used',
          'recovery_codes_regenerated',
          'second_factor_enabled',
        ]);
      });

      it('turns it off with the password; the password alone signs in again (nobody is locked out)', async () => {
        expectProblem(await api.post('/auth/totp/disable', {}, { token: alice }), 400, 'invalid_request');
        const off = await api.post('/auth/totp/disable', { current_password: PASSWORD }, { token: alice });
        expect(off.status, off.text).to.equal(200);
        expect(off.json).to.deep.equal({ enabled: false, changed: true });

        const answer = await login();
        expect(answer.status, answer.text).to.equal(200);
        expect(jwtPayload(answer.json.access_token).amr).to.deep.equal(['pwd']);
        const security = (await api.get('/auth/security', { token: alice })).json;
        expect(security.recovery_codes_left).to.equal(0);
        expect(security.history[0].kind).to.equal('second_factor_disabled');
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: 'any', recovery_code: recoveryCodes[0] }),
          401,
          'challenge_expired',
        );
      });

      it('lets a token scoped to an L1 server change nothing', async () => {
        const l1 = await new FakeL1Server().start();
        try {
          const scoped = (await api.post('/renderers/attach', { l1_server: l1.url }, { token: alice })).json
            .access_token as string;
          // Made by the registration's (password) session: its amr is that session's.
          expect(jwtPayload(scoped).amr).to.deep.equal(['pwd']);
          expect(
            (await api.post('/auth/verify', { token: scoped, l1_server: l1.url })).json.amr,
          ).to.deep.equal(['pwd']);
          expectProblem(
            await api.post('/auth/totp/disable', { current_password: PASSWORD }, { token: scoped }),
            403,
            'forbidden',
          );
          expectProblem(await api.get('/auth/security', { token: scoped }), 403, 'forbidden');
          expectProblem(
            await api.post('/auth/passkeys/options', undefined, { token: scoped }),
            403,
            'forbidden',
          );
        } finally {
          await l1.stop();
        }
      });
    });

    describe('the login limits', () => {
      let secret: string;
      beforeEach(async () => {
        await start({ LOGIN_MAX_FAILURES_PER_USERNAME: '3' });
        ({ secret } = await enable());
        nextStep();
      });

      it('count wrong codes: after the allowance even the right code is refused with 429', async () => {
        // The password counts as the first of 3 attempts (it is not cleared before the second step succeeds).
        const challenge = await challengeOf();
        const right = codeAt(secret, clock.now());
        const wrong = right === '123456' ? '654321' : '123456';
        for (let i = 0; i < 2; i++)
          expectProblem(
            await api.post('/auth/login/mfa', { challenge, code: wrong }),
            401,
            'invalid_credentials',
          );

        const limited = await api.post('/auth/login/mfa', { challenge, code: right });
        expectProblem(limited, 429, 'rate_limited');
        expect(Number(limited.headers.get('retry-after'))).to.be.above(0);
        expectProblem(await login(), 429, 'rate_limited');
      });

      it('are not cleared by the right password alone: only a completed second step clears them', async () => {
        const right = () => codeAt(secret, clock.now());
        const wrong = () => (right() === '123456' ? '654321' : '123456');
        // password (1 attempt, not cleared), wrong code (2), password again (3), wrong code: over the limit.
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: await challengeOf(), code: wrong() }),
          401,
          'invalid_credentials',
        );
        const again = await login();
        expectProblem(again, 401, 'mfa_required');
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: again.json.challenge, code: wrong() }),
          429,
          'rate_limited',
        );
      });

      it('are cleared by a completed second step', async () => {
        const challenge = await challengeOf();
        const right = codeAt(secret, clock.now());
        const wrong = right === '123456' ? '654321' : '123456';
        expectProblem(
          await api.post('/auth/login/mfa', { challenge, code: wrong }),
          401,
          'invalid_credentials',
        );
        expect((await api.post('/auth/login/mfa', { challenge, code: right })).status).to.equal(200);
        nextStep();
        for (let i = 0; i < 2; i++) expectProblem(await login(), 401, 'mfa_required');
      });
    });

    describe("the app codes' daily limit", () => {
      it('refuses app codes after the wrong ones of a day, even after a success; recovery codes still sign in', async () => {
        await start({ LOGIN_MAX_FAILURES_PER_USERNAME: '1000', APP_CODE_FAILURES_PER_DAY: '2' });
        const { secret, recoveryCodes } = await enable();
        nextStep();
        const right = () => codeAt(secret, clock.now());
        const wrong = () => (right() === '123456' ? '654321' : '123456');
        const challenge = await challengeOf();
        for (let i = 0; i < 2; i++)
          expectProblem(
            await api.post('/auth/login/mfa', { challenge, code: wrong() }),
            401,
            'invalid_credentials',
          );
        const limited = await api.post('/auth/login/mfa', { challenge, code: right() });
        expectProblem(limited, 429, 'rate_limited');
        expect(Number(limited.headers.get('retry-after'))).to.be.above(23 * 3600);

        // Nobody is locked out: a recovery code completes the same step…
        const recovered = await api.post('/auth/login/mfa', { challenge, recovery_code: recoveryCodes[0] });
        expect(recovered.status, recovered.text).to.equal(200);
        // …and that success does not give the guesser a new allowance.
        nextStep();
        expectProblem(
          await api.post('/auth/login/mfa', { challenge: await challengeOf(), code: right() }),
          429,
          'rate_limited',
        );
      });
    });
  });
}
