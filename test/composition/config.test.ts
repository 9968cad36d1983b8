import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/composition/config.js';

describe('configuration and the JWT secret', () => {
  let dir: string;
  const warnings: string[] = [];
  const load = (env: Record<string, string>) =>
    loadConfig(
      { SECRETS_DIR: join(dir, 'secrets'), ...env },
      { dataDir: join(dir, 'data'), warn: (m) => warnings.push(m) },
    );

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-config-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the documented defaults', () => {
    const config = load({});
    expect(config.port).to.equal(8200);
    expect(config.host).to.equal('0.0.0.0');
    expect(config.publicUrl).to.equal('http://localhost:8200');
    expect(config.store).to.deep.equal({ kind: 'sqlite', path: './data/l2.sqlite' });
    expect(config.bcryptCost).to.equal(12);
    expect(config.bcryptQueueSeconds).to.equal(5);
    expect(config.login).to.deep.equal({
      maxFailuresPerUsername: 10,
      maxFailuresPerAddress: 50,
      maxFailuresPer56: 100,
      maxFailuresPer48: 200,
      windowSeconds: 900,
    });
    expect(config.revocationCleanupIntervalMs).to.equal(3_600_000);
    expect(config.actions).to.deep.equal({
      registrationsPerAddress: 10,
      registrationWindowSeconds: 3600,
      assetWritesPerUser: 60,
      assetWriteWindowSeconds: 60,
      passkeyChallengesPerAddress: 60,
    });
    expect(config.delivery).to.deep.equal({ concurrency: 512, perHost: 2, leaseMs: 60_000 });
    expect(config.allowPrivateDestinations).to.equal(false);
  });

  it('creates a development secret once (mode 0600, in a 0700 directory), warns once, and reuses it', () => {
    const first = load({}).jwtSecret;
    const file = join(dir, 'data', 'jwt_secret');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).to.equal(0o700);
    expect(warnings).to.have.length(1);
    const second = load({}).jwtSecret;
    expect(second.equals(first)).to.equal(true);
    expect(warnings).to.have.length(1);
  });

  it('reads the mounted secret file, trimmed of surrounding whitespace', () => {
    const secrets = join(dir, 'secrets');
    mkdirSync(secrets);
    writeFileSync(join(secrets, 'jwt_secret'), `  ${'s'.repeat(40)}\n`);
    expect(load({}).jwtSecret.toString()).to.equal('s'.repeat(40));
    expect(warnings).to.have.length(0);
  });

  it('refuses a secret shorter than 32 bytes', () => {
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'jwt_secret'), `${'s'.repeat(31)}\n\n`);
    expect(() => load({})).to.throw(ConfigError, /at least 32 bytes/);
  });

  it('refuses to start in production without the secret file, and never creates one', () => {
    expect(() => load({ NODE_ENV: 'production' })).to.throw(ConfigError, /jwt_secret is missing/);
    expect(() => readFileSync(join(dir, 'data', 'jwt_secret'))).to.throw();
  });

  it('names the bad setting in one line', () => {
    for (const [env, pattern] of [
      [{ PORT: 'eighty' }, /^PORT: /],
      [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL: /],
      [{ STORE: 'postgres://x' }, /^STORE: /],
      [{ BCRYPT_COST: '40' }, /^BCRYPT_COST: /],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
      [{ L1_ALLOW_PRIVATE: 'yes' }, /^L1_ALLOW_PRIVATE: /],
      [{ DELIVERY_PER_HOST: '3' }, /^DELIVERY_PER_HOST: /],
      [{ REGISTRATIONS_PER_ADDRESS: '0' }, /^REGISTRATIONS_PER_ADDRESS: /],
      [{ BCRYPT_QUEUE_SECONDS: '0' }, /^BCRYPT_QUEUE_SECONDS: /],
      [{ LOGIN_MAX_FAILURES_PER_56: '0' }, /^LOGIN_MAX_FAILURES_PER_56: /],
      [{ LOGIN_MAX_FAILURES_PER_48: 'many' }, /^LOGIN_MAX_FAILURES_PER_48: /],
    ] as const) {
      let message = '';
      try {
        load(env);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).to.match(pattern);
      expect(message).not.to.contain('\n');
    }
  });

  it('refuses private destinations in every mode unless L1_ALLOW_PRIVATE=true', () => {
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'jwt_secret'), 's'.repeat(32));
    expect(load({}).allowPrivateDestinations).to.equal(false);
    expect(load({ NODE_ENV: 'test' }).allowPrivateDestinations).to.equal(false);
    expect(load({ NODE_ENV: 'production' }).allowPrivateDestinations).to.equal(false);
    expect(load({ L1_ALLOW_PRIVATE: 'true' }).allowPrivateDestinations).to.equal(true);
    expect(load({ NODE_ENV: 'production', L1_ALLOW_PRIVATE: 'true' }).allowPrivateDestinations).to.equal(
      true,
    );
  });

  it('spells PUBLIC_URL one way: no trailing slash, no default port, lower-case host', () => {
    expect(load({ PUBLIC_URL: 'https://l2.example/' }).publicUrl).to.equal('https://l2.example');
    expect(load({ PUBLIC_URL: 'https://L2.Example:443' }).publicUrl).to.equal('https://l2.example');
    expect(load({ PUBLIC_URL: 'http://l2.example:8200/base/' }).publicUrl).to.equal(
      'http://l2.example:8200/base',
    );
  });
});
