import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/composition/config.js';
import { newIdTokenKeyPem, writeIdTokenKey } from '../support/id-token-key.js';
import { newNoticeKeyPem, writeNoticeKey } from '../support/notice-key.js';
import { TEST_TLOG_KEY_PEM, writeTestTlogKey } from '../support/tlog-test-key.js';

describe('configuration and the JWT secret', () => {
  let dir: string;
  const warnings: string[] = [];
  const load = (env: Record<string, string>) =>
    loadConfig(
      { SECRETS_DIR: join(dir, 'secrets'), ...env },
      { dataDir: join(dir, 'data'), warn: (m) => warnings.push(m) },
    );

  const jwtWarnings = () => warnings.filter((w) => w.includes('JWT secret'));
  const mountSecrets = () => {
    mkdirSync(join(dir, 'secrets'), { recursive: true });
    writeFileSync(join(dir, 'secrets', 'jwt_secret'), 's'.repeat(32));
    writeNoticeKey(join(dir, 'secrets'));
    writeIdTokenKey(join(dir, 'secrets'));
    writeTestTlogKey(join(dir, 'secrets'));
  };

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
    expect(config.store).to.deep.equal({
      kind: 'sqlite',
      url: 'sqlite:./data/l2.sqlite',
      settings: { poolSize: 10, connectTimeoutSeconds: 5, idleTimeoutSeconds: 120, maxLifetimeSeconds: 1800 },
    });
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
      appCodeFailuresPerUser: 20,
    });
    expect(config.delivery).to.deep.equal({ concurrency: 512, perHost: 2, leaseMs: 60_000 });
    expect(config.introspection).to.deep.equal({ maxFailuresPerAddress: 1000, windowSeconds: 900 });
    expect(config.allowPrivateDestinations).to.equal(false);
  });

  it('creates a development secret once (mode 0600, in a 0700 directory), warns once, and reuses it', () => {
    const first = load({}).jwtSecret;
    const file = join(dir, 'data', 'jwt_secret');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).to.equal(0o700);
    expect(jwtWarnings()).to.have.length(1);
    const second = load({}).jwtSecret;
    expect(second.equals(first)).to.equal(true);
    expect(jwtWarnings()).to.have.length(1);
  });

  it('reads the mounted secret file, trimmed of surrounding whitespace', () => {
    const secrets = join(dir, 'secrets');
    mkdirSync(secrets);
    writeFileSync(join(secrets, 'jwt_secret'), `  ${'s'.repeat(40)}\n`);
    expect(load({}).jwtSecret.toString()).to.equal('s'.repeat(40));
    expect(jwtWarnings()).to.have.length(0);
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

  it('reads FEDERATION_MODE: blocklist unless allowlist is asked for', () => {
    expect(load({}).federationMode).to.equal('blocklist');
    expect(load({ FEDERATION_MODE: 'allowlist' }).federationMode).to.equal('allowlist');
  });

  it('names the bad setting in one line', () => {
    for (const [env, pattern] of [
      [{ PORT: 'eighty' }, /^PORT: /],
      [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL: /],
      [{ STORE: 'redis://x' }, /^STORE: /],
      [{ STORE: 'postgres://db:99999/l2' }, /^STORE: /],
      [{ STORE_POOL_SIZE: '0' }, /^STORE_POOL_SIZE: /],
      [{ STORE_CONNECT_TIMEOUT_SECONDS: 'soon' }, /^STORE_CONNECT_TIMEOUT_SECONDS: /],
      [{ BCRYPT_COST: '40' }, /^BCRYPT_COST: /],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
      [{ L1_ALLOW_PRIVATE: 'yes' }, /^L1_ALLOW_PRIVATE: /],
      [{ DELIVERY_PER_HOST: '3' }, /^DELIVERY_PER_HOST: /],
      [{ REGISTRATIONS_PER_ADDRESS: '0' }, /^REGISTRATIONS_PER_ADDRESS: /],
      [{ BCRYPT_QUEUE_SECONDS: '0' }, /^BCRYPT_QUEUE_SECONDS: /],
      [{ LOGIN_MAX_FAILURES_PER_56: '0' }, /^LOGIN_MAX_FAILURES_PER_56: /],
      [{ LOGIN_MAX_FAILURES_PER_48: 'many' }, /^LOGIN_MAX_FAILURES_PER_48: /],
      [{ FEDERATION_MODE: 'closed' }, /^FEDERATION_MODE: /],
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

  it('takes a PostgreSQL STORE, one host or several, with the pool settings a server store is reached with', () => {
    const url = 'postgresql://l2:s3cret@db1:5433,db2/l2?target_session_attrs=read-write&sslmode=require';
    const config = load({
      STORE: url,
      STORE_POOL_SIZE: '25',
      STORE_CONNECT_TIMEOUT_SECONDS: '3',
      STORE_IDLE_TIMEOUT_SECONDS: '0',
      STORE_MAX_LIFETIME_SECONDS: '600',
    });

    expect(config.store).to.deep.equal({
      kind: 'postgres',
      url,
      settings: { poolSize: 25, connectTimeoutSeconds: 3, idleTimeoutSeconds: 0, maxLifetimeSeconds: 600 },
    });
    expect(load({ STORE: 'postgres://localhost/l2' }).store.kind).to.equal('postgres');
  });

  it('refuses a PostgreSQL STORE it cannot read in one line that never shows the password', () => {
    for (const [url, reason] of [
      ['postgres://l2:hunter2@db:99999/l2', /a port/],
      ['postgres://l2:hunter2@db/l2?sslmode=sometimes', /sslmode must be one of/],
      ['postgres://l2:hunter2@db/l2?target_session_attrs=whatever', /target_session_attrs must be one of/],
      ['postgres://l2:hunter2@db:5432,[::1/l2', /a host of the URL/],
    ] as const) {
      let message = '';
      try {
        load({ STORE: url });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, url).to.match(/^STORE: the PostgreSQL URL /);
      expect(message, url).to.match(reason);
      expect(message, url).not.to.contain('hunter2');
    }
  });

  it('refuses private destinations in every mode unless L1_ALLOW_PRIVATE=true', () => {
    mountSecrets();
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

  describe('the notice signing key (API.md §2.1)', () => {
    it('creates a development key once (a P-256 PKCS#8 file, mode 0600), warns once, and reuses it', () => {
      const first = load({}).noticeKeys;
      const file = join(dir, 'data', 'notice_signing_key');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(first.current).to.equal(readFileSync(file, 'utf8'));
      expect(first.current).to.match(/^-----BEGIN PRIVATE KEY-----/);
      expect(first.previous).to.equal(null);
      const noticeWarnings = () => warnings.filter((w) => w.includes('notice signing key'));
      expect(noticeWarnings()).to.have.length(1);
      expect(load({}).noticeKeys.current).to.equal(first.current);
      expect(noticeWarnings()).to.have.length(1);
    });

    it('reads the mounted key and, when present, the previous one next to it', () => {
      const secrets = join(dir, 'secrets');
      mkdirSync(secrets);
      const previous = newNoticeKeyPem();
      const current = writeNoticeKey(secrets, previous);
      expect(load({}).noticeKeys).to.deep.equal({ current, previous });
      expect(() => readFileSync(join(dir, 'data', 'notice_signing_key'))).to.throw();
    });

    it('refuses to start in production without the key file, and never creates one', () => {
      mkdirSync(join(dir, 'secrets'));
      writeFileSync(join(dir, 'secrets', 'jwt_secret'), 's'.repeat(32));
      expect(() => load({ NODE_ENV: 'production' })).to.throw(ConfigError, /notice_signing_key is missing/);
      expect(() => readFileSync(join(dir, 'data', 'notice_signing_key'))).to.throw();
    });

    it('refuses, in one line naming the file, a key that is not an EC P-256 private key', () => {
      const secrets = join(dir, 'secrets');
      mkdirSync(secrets);
      for (const wrong of [
        'not a key',
        generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({
          format: 'pem',
          type: 'pkcs8',
        }),
        generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }),
      ]) {
        writeFileSync(join(secrets, 'notice_signing_key'), wrong);
        let message = '';
        try {
          load({});
        } catch (error) {
          expect(error).to.be.instanceOf(ConfigError);
          message = (error as Error).message;
        }
        expect(message).to.contain(join(secrets, 'notice_signing_key'));
        expect(message).to.contain('EC P-256');
        expect(message).not.to.contain('\n');
      }
    });
  });

  describe('the ID-token signing key (API.md §2.5)', () => {
    it('creates a development key once (RSA 2048, PKCS#8, mode 0600), warns once, and reuses it', () => {
      const first = load({}).idTokenKeys;
      const file = join(dir, 'data', 'id_token_signing_key');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(first.current).to.equal(readFileSync(file, 'utf8'));
      expect(first.current).to.match(/^-----BEGIN PRIVATE KEY-----/);
      expect(first.previous).to.equal(null);
      const idWarnings = () => warnings.filter((w) => w.includes('ID-token signing key'));
      expect(idWarnings()).to.have.length(1);
      expect(load({}).idTokenKeys.current).to.equal(first.current);
      expect(idWarnings()).to.have.length(1);
    });

    it('reads the mounted key and, when present, the previous one next to it', () => {
      const secrets = join(dir, 'secrets');
      mkdirSync(secrets);
      const previous = newIdTokenKeyPem();
      const current = writeIdTokenKey(secrets, { previous });
      expect(load({}).idTokenKeys).to.deep.equal({ current, previous });
      expect(() => readFileSync(join(dir, 'data', 'id_token_signing_key'))).to.throw();
    });

    it('refuses to start in production without the key file, and never creates one', () => {
      const secrets = join(dir, 'secrets');
      mkdirSync(secrets);
      writeFileSync(join(secrets, 'jwt_secret'), 's'.repeat(32));
      writeNoticeKey(secrets);
      expect(() => load({ NODE_ENV: 'production' })).to.throw(ConfigError, /id_token_signing_key is missing/);
      expect(() => readFileSync(join(dir, 'data', 'id_token_signing_key'))).to.throw();
    });

    it('refuses, in one line naming the file, a key that is not an RSA key of 2048–4096 bits', () => {
      const secrets = join(dir, 'secrets');
      mkdirSync(secrets);
      for (const wrong of [
        'not a key',
        newNoticeKeyPem(),
        generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
          format: 'pem',
          type: 'pkcs8',
        }),
      ]) {
        writeFileSync(join(secrets, 'id_token_signing_key'), wrong);
        let message = '';
        try {
          load({});
        } catch (error) {
          expect(error).to.be.instanceOf(ConfigError);
          message = (error as Error).message;
        }
        expect(message).to.contain(join(secrets, 'id_token_signing_key'));
        expect(message).to.contain('RSA private key of 2048–4096 bits');
        expect(message).not.to.contain('\n');
      }
    });
  });

  describe('the transparency log', () => {
    const tlogWarnings = () => warnings.filter((w) => w.includes('transparency log key'));
    const keyFile = () => join(dir, 'data', 'tlog_signing_key');

    it('derives the origin from PUBLIC_URL: no scheme, then /tlog', () => {
      expect(load({}).tlog.origin).to.equal('localhost:8200/tlog');
      expect(load({ PUBLIC_URL: 'https://L2.Example/' }).tlog.origin).to.equal('l2.example/tlog');
      expect(load({ PUBLIC_URL: 'http://l2.example:8080/base/' }).tlog.origin).to.equal(
        'l2.example:8080/base/tlog',
      );
    });

    it("refuses a PUBLIC_URL whose path holds '+' (the origin is a signed-note key name), in one line", () => {
      expect(() => load({ PUBLIC_URL: 'https://l2.example/a+b' })).to.throw(
        ConfigError,
        /^PUBLIC_URL: [^\n]+$/,
      );
    });

    it('creates a development key once (Ed25519, PKCS#8 PEM, mode 0600), warns once, and reuses it', () => {
      const first = load({}).tlog.signingKeyPem;
      expect(first).to.match(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(statSync(keyFile()).mode & 0o777).to.equal(0o600);
      expect(tlogWarnings()).to.have.length(1);
      expect(load({}).tlog.signingKeyPem).to.equal(first);
      expect(tlogWarnings()).to.have.length(1);
      expect(readdirSync(join(dir, 'data')).sort()).to.deep.equal([
        'id_token_signing_key',
        'jwt_secret',
        'notice_signing_key',
        'tlog_signing_key',
      ]);
    });

    it('reads the key from tlog_signing_key in SECRETS_DIR, its own file beside jwt_secret', () => {
      mkdirSync(join(dir, 'secrets'));
      writeTestTlogKey(join(dir, 'secrets'));
      expect(load({}).tlog.signingKeyPem).to.equal(TEST_TLOG_KEY_PEM);
      expect(tlogWarnings()).to.have.length(0);
      expect(() => readFileSync(keyFile())).to.throw();
    });

    it('refuses to start in production without the key file, and never creates one', () => {
      mkdirSync(join(dir, 'secrets'));
      writeFileSync(join(dir, 'secrets', 'jwt_secret'), 's'.repeat(32));
      writeNoticeKey(join(dir, 'secrets'));
      writeIdTokenKey(join(dir, 'secrets'));
      expect(() => load({ NODE_ENV: 'production' })).to.throw(
        ConfigError,
        /^\S+tlog_signing_key is missing: [^\n]+$/,
      );
      expect(() => readFileSync(keyFile())).to.throw();
    });

    it('refuses a key file that holds no Ed25519 private key, in one line', () => {
      mkdirSync(join(dir, 'secrets'));
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
        type: 'pkcs8',
        format: 'pem',
      });
      for (const content of ['not a key', rsa]) {
        writeFileSync(join(dir, 'secrets', 'tlog_signing_key'), content);
        expect(() => load({})).to.throw(ConfigError, /^tlog_signing_key: not an Ed25519 private key[^\n]+$/);
      }
    });
  });
});
