// Rotating the JWT secret on two instances sharing one store, as `l2 secret rotate` says to: nobody is signed out,
// new tokens name the new secret, and once the previous secret is removed its tokens stop verifying.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { renameSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { keyIdOf } from '../../src/adapters/crypto/jwt-token-codec.js';
import { client, registerUser } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const OLD = 'old-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const NEW = 'new-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid?: string }).kid;

describe('rotating the JWT secret on two instances', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let dir: string;
  let running: L2Process[] = [];
  const env = () => ({
    STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
    SECRETS_DIR: dir,
    BCRYPT_COST: '4',
    PUBLIC_URL: 'http://l2.test',
  });
  const startBoth = async () => {
    running = await Promise.all([startL2Process(env()), startL2Process(env())]);
    return running as [L2Process, L2Process];
  };
  const stopAll = async () => {
    await Promise.all(running.map((p) => p.stop()));
    running = [];
  };
  const verify = async (at: L2Process, token: string) => {
    const response = await client(at.url).post('/auth/verify', { token });
    return response.status === 200 ? 'valid' : (response.json.code as string);
  };
  const rotateSays = async () =>
    (
      await promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, 'secret', 'rotate'], {
        env: { ...process.env, ...env(), LOG_LEVEL: 'silent' },
      })
    ).stdout;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-rotate-'));
    writeFileSync(join(dir, 'jwt_secret'), OLD);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
  });
  afterEach(async () => {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every session through the steps of l2 secret rotate, and ends the old ones only when told', async () => {
    let [a, b] = await startBoth();
    const before = await registerUser(a.url, 'alice');
    expect(kidOf(before)).to.equal(keyIdOf(Buffer.from(OLD)));
    expect(await rotateSays()).to.match(
      new RegExp(`^The current JWT secret is ${keyIdOf(Buffer.from(OLD))} `),
    );

    // Step 2: every instance accepts the new secret before any signs with it.
    writeFileSync(join(dir, 'jwt_secret.new'), NEW);
    copyFileSync(join(dir, 'jwt_secret.new'), join(dir, 'jwt_secret.previous'));
    await stopAll();
    [a, b] = await startBoth();
    expect([await verify(a, before), await verify(b, before)]).to.deep.equal(['valid', 'valid']);
    const duringLogin = await client(a.url).post('/auth/login', {
      username: 'alice',
      password: 'correct horse battery',
    });
    expect(kidOf(duringLogin.json.access_token as string), 'still signed with the old secret').to.equal(
      keyIdOf(Buffer.from(OLD)),
    );

    // Step 3: the new secret becomes current; the old one verifies its tokens.
    renameSync(join(dir, 'jwt_secret'), join(dir, 'jwt_secret.previous'));
    renameSync(join(dir, 'jwt_secret.new'), join(dir, 'jwt_secret'));
    await stopAll();
    [a, b] = await startBoth();
    expect(await rotateSays())
      .to.include(`is ${keyIdOf(Buffer.from(NEW))} `)
      .and.include(keyIdOf(Buffer.from(OLD)));
    const after = (
      await client(a.url).post('/auth/login', { username: 'alice', password: 'correct horse battery' })
    ).json.access_token as string;
    expect(kidOf(after)).to.equal(keyIdOf(Buffer.from(NEW)));
    expect([await verify(a, before), await verify(b, before)]).to.deep.equal(['valid', 'valid']);
    expect([await verify(a, after), await verify(b, after)]).to.deep.equal(['valid', 'valid']);
    // Revocation is by the token itself, whichever secret signed it.
    expect((await client(b.url).post('/auth/logout', undefined, { token: before })).status).to.equal(200);
    expect(await verify(a, before)).to.equal('token_revoked');

    // Step 4: the previous secret removed, its tokens no longer verify; the new ones do.
    rmSync(join(dir, 'jwt_secret.previous'));
    await stopAll();
    [a, b] = await startBoth();
    const oldSession = duringLogin.json.access_token as string;
    expect([await verify(a, oldSession), await verify(b, oldSession)]).to.deep.equal([
      'token_invalid',
      'token_invalid',
    ]);
    expect([await verify(a, after), await verify(b, after)]).to.deep.equal(['valid', 'valid']);
  });
});
