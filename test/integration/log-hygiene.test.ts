import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FormBrowser } from '../support/browser.js';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { client } from '../support/http.js';
import { startL2Process } from '../support/l2-process.js';
import { codeAt } from '../support/rfc6238.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { TEST_TLOG_KEY_PEM, writeTestTlogKey } from '../support/tlog-test-key.js';

const PASSWORD = 'a password never to be logged';
const NEW_PASSWORD = 'another password never to be logged';

describe('log hygiene: what the service writes to its logs', function () {
  it('holds no token, password, cookie or secret — at the most verbose level, with failing requests too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2-logs-'));
    const l1 = await new FakeL1Server().start();
    let logs = '';
    try {
      writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
      writeNoticeKey(dir);
      writeIdTokenKey(dir);
      writeTestTlogKey(dir);
      const l2 = await startL2Process({
        SECRETS_DIR: dir,
        STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
        BCRYPT_COST: '4',
        LOG_LEVEL: 'trace',
        QUEUE_POLL_INTERVAL_MS: '50',
      });
      l2.child.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
      l2.child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
      const api = client(l2.url);
      const tokens: string[] = [];

      const registered = await api.post('/auth/register', { username: 'alice', password: PASSWORD });
      tokens.push(registered.json.access_token);
      const loggedIn = await api.post('/auth/login', { username: 'alice', password: PASSWORD });
      tokens.push(loggedIn.json.access_token);
      await api.post('/auth/login', { username: 'alice', password: `${PASSWORD} but wrong` });
      const attached = await api.post('/renderers/attach', { l1_server: l1.url }, { token: tokens[0] });
      tokens.push(attached.json.access_token);
      const verified = await api.post(
        '/auth/verify',
        { token: tokens[2], l1_server: l1.url },
        { headers: { 'x-request-id': 'l1-trace-42' } },
      );
      expect(verified.headers.get('x-request-id')).to.equal('l1-trace-42');
      const unsafe = await api.get('/registry', { headers: { 'x-request-id': 'two words and more' } });
      expect(unsafe.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      await api.get('/auth/me', { headers: { cookie: `l2_token=${tokens[1]}` } });
      await api.get('/auth/me', { headers: { authorization: `Bearer ${tokens[1]}x` } });
      await api.post('/auth/verify', { token: `${tokens[0]}garbage` });
      await api.get(`/nowhere?token=${tokens[0]}`);
      await api.post('/auth/logout', { everywhere: true }, { token: tokens[0] });
      await l1.waitForNotices(1);

      // The browser's ways: a cookie set by the login form, the attach form's redirect carrying a token in its
      // Location, a password change (both passwords), the sessions page, deleting the account.
      const browser = new FormBrowser(l2.url);
      await browser.get('/login');
      await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
      tokens.push(browser.cookie('l2_token')!);
      await browser.get('/renderers');
      const redirected = await browser.submit('/renderers/attach', { l1_server: l1.url });
      tokens.push(new URL(redirected.headers.get('location')!).searchParams.get('token')!);
      await browser.get('/account');
      await browser.submit('/auth/password', { current_password: PASSWORD, new_password: NEW_PASSWORD });
      await browser.submit('/auth/password', {
        current_password: 'a wrong guess 123',
        new_password: PASSWORD,
      });
      const phone = await api.post('/auth/login', { username: 'alice', password: NEW_PASSWORD });
      tokens.push(phone.json.access_token);
      await api.get('/auth/sessions', {
        token: phone.json.access_token,
        headers: { accept: 'application/json' },
      });
      await api.post('/auth/delete-account', { password: NEW_PASSWORD }, { token: phone.json.access_token });
      await l1.waitForNotices(2);
      expect(await l2.stop()).to.equal(0);

      expect(logs.split('\n').length).to.be.greaterThan(10);
      for (const token of tokens) {
        expect(token).to.be.a('string');
        // Any of the token's three parts would do: the signature alone is the secret part.
        for (const part of token.split('.').slice(1)) expect(logs).to.not.contain(part);
      }
      expect(tokens).to.have.length(6);
      expect(logs).to.not.contain(PASSWORD);
      expect(logs).to.not.contain(NEW_PASSWORD);
      expect(logs).to.not.contain(TEST_SECRET);
      // Nor the transparency log's private key (the middle line of its PEM).
      expect(logs).to.not.contain(TEST_TLOG_KEY_PEM.split('\n')[1]);

      // One line per request, with its id (the caller's, or one made up), its route pattern, status and duration.
      const requests = logs
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.msg === 'request');
      expect(requests.find((r) => r.reqId === 'l1-trace-42')).to.deep.include({
        method: 'POST',
        route: '/auth/verify',
        path: '/auth/verify',
        status: 200,
      });
      expect(requests.find((r) => r.path === '/registry')).to.include({ route: '/registry', status: 200 });
      for (const entry of requests)
        expect(entry.reqId)
          .to.be.a('string')
          .and.match(/^[\w.:-]{1,64}$/);
      expect(requests.find((r) => r.path === '/nowhere')).to.include({ route: null, status: 404 });
    } finally {
      await l1.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds no TOTP secret, code, recovery code or reset link — through enrolment, sign-ins and a reset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2-logs-'));
    let logs = '';
    try {
      writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
      const env = {
        SECRETS_DIR: dir,
        STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
        BCRYPT_COST: '4',
        LOG_LEVEL: 'trace',
      };
      const l2 = await startL2Process(env);
      l2.child.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
      l2.child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
      const api = client(l2.url);
      const alice = (await api.post('/auth/register', { username: 'alice', password: PASSWORD })).json
        .access_token as string;
      const setup = (await api.post('/auth/totp/setup', undefined, { token: alice })).json;
      const secret = setup.secret as string;
      const enrolCode = codeAt(secret, new Date());
      const on = await api.post(
        '/auth/totp',
        { code: enrolCode, current_password: PASSWORD },
        { token: alice },
      );
      const recoveryCodes = on.json.recovery_codes as string[];
      expect(recoveryCodes).to.have.length(10);
      const step = (await api.post('/auth/login', { username: 'alice', password: PASSWORD })).json;
      const wrong = enrolCode === '123456' ? '654321' : '123456';
      await api.post('/auth/login/mfa', { challenge: step.challenge, code: wrong });
      await api.post('/auth/login/mfa', { challenge: step.challenge, recovery_code: recoveryCodes[0] });
      const renewed = await api.post(
        '/auth/recovery-codes',
        { current_password: PASSWORD },
        { token: alice },
      );
      recoveryCodes.push(...(renewed.json.recovery_codes as string[]));

      const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', cli, 'users', 'reset', 'alice'],
        {
          env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
        },
      );
      const link = new URL(stdout.split('\n')[0]!);
      const token = link.searchParams.get('token')!;
      const browser = new FormBrowser(l2.url);
      await browser.get(`${link.pathname}${link.search}`);
      await browser.submit(`${link.pathname}${link.search}`, { new_password: NEW_PASSWORD });
      await browser.get(`${link.pathname}${link.search}`);
      expect(await l2.stop()).to.equal(0);

      expect(logs.split('\n').length).to.be.greaterThan(10);
      for (const form of [
        secret,
        secret.toLowerCase(),
        enrolCode,
        step.challenge as string,
        token,
        ...recoveryCodes,
      ])
        expect(logs).not.to.contain(form);
      expect(logs).to.contain('/auth/reset');
      expect(logs).not.to.contain(PASSWORD);
      expect(logs).not.to.contain(NEW_PASSWORD);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
