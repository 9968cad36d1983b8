import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';

const MIN_SECRET_BYTES = 32;
const SECRET_FILE = 'jwt_secret';
/** The secret before the last rotation: tokens it signed keep verifying until they expire. */
export const PREVIOUS_SECRET_FILE = 'jwt_secret.previous';

function readSecret(path: string): Buffer {
  const secret = Buffer.from(readFileSync(path, 'utf8').trim(), 'utf8');
  if (secret.length < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `${path}: the JWT secret must be at least ${MIN_SECRET_BYTES} bytes (after trimming whitespace)`,
    );
  }
  return secret;
}

/**
 * The JWT signing secret comes only from the file `jwt_secret` in SECRETS_DIR — never from an env value. Outside
 * production, without that file, a random secret is created once in `<dataDir>/jwt_secret` (mode 0600) and reused,
 * so development tokens survive restarts. Production without the file refuses to start.
 */
export function loadJwtSecret(input: {
  secretsDir: string;
  production: boolean;
  dataDir: string;
  warn: (message: string) => void;
}): Buffer {
  const mounted = join(input.secretsDir, SECRET_FILE);
  if (existsSync(mounted)) return readSecret(mounted);
  if (input.production) {
    throw new ConfigError(
      `${mounted} is missing: production needs the JWT secret as a file (e.g. a Docker secret)`,
    );
  }
  const fallback = join(input.dataDir, SECRET_FILE);
  if (!existsSync(fallback)) {
    mkdirSync(input.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(fallback, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    chmodSync(fallback, 0o600);
    input.warn(`l2: no ${mounted}; created a development JWT secret in ${fallback} (not for production)`);
  }
  return readSecret(fallback);
}

/**
 * The previous JWT secret, from `jwt_secret.previous` next to the current one (SECRETS_DIR, or the development
 * directory when the current secret lives there), or null when there is none. Only verification uses it.
 */
export function loadPreviousJwtSecret(input: { secretsDir: string; dataDir: string }): Buffer | null {
  for (const dir of [input.secretsDir, input.dataDir]) {
    const path = join(dir, PREVIOUS_SECRET_FILE);
    if (existsSync(path)) return readSecret(path);
    if (existsSync(join(dir, SECRET_FILE))) return null;
  }
  return null;
}

const NOTICE_KEY_FILE = 'notice_signing_key';
/** The notice key before the last rotation: still published in the JWKS, signs nothing. */
export const PREVIOUS_NOTICE_KEY_FILE = 'notice_signing_key.previous';

/** A signing key pair of files as PKCS#8 PEM (notice keys, ID-token keys): the current one signs, both are published. */
export interface NoticeKeyFiles {
  readonly current: string;
  readonly previous: string | null;
}

/** Reads a notice key file, refusing anything but a P-256 private key (one clear line naming the file). */
function readNoticeKey(path: string): string {
  const pem = readFileSync(path, 'utf8');
  let curve: string | undefined;
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    curve = key.asymmetricKeyType === 'ec' ? key.asymmetricKeyDetails?.namedCurve : undefined;
  } catch {
    curve = undefined;
  }
  if (curve !== 'prime256v1')
    throw new ConfigError(`${path}: the notice signing key must be an EC P-256 private key in PKCS#8 PEM`);
  return pem;
}

/** A new P-256 key as PKCS#8 PEM, as `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` makes. */
const newNoticeKey = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    format: 'pem',
    type: 'pkcs8',
  }) as string;

/**
 * Writes a new development key at `path` unless one is there. The key is written whole to a file of its own and then
 * linked into place, so another process starting on the same directory never reads half a key: it either finds the
 * link there (and uses that key) or loses the race to make it.
 */
function createDevelopmentKeyFile(path: string, dataDir: string, newKey: () => string): boolean {
  if (existsSync(path)) return false;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, newKey(), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
  return true;
}

/**
 * The key that signs revocation notices (API.md §2.1), from the file `notice_signing_key` in SECRETS_DIR — its own
 * key, never the token secret. Outside production, without that file, one is created once in
 * `<dataDir>/notice_signing_key` (mode 0600) and reused, as the JWT secret is, so that L1 servers keep trusting it
 * across restarts; production without the file refuses to start. `notice_signing_key.previous` next to the current
 * one is published too (rotation).
 */
export function loadNoticeSigningKeys(input: {
  secretsDir: string;
  production: boolean;
  dataDir: string;
  warn: (message: string) => void;
}): NoticeKeyFiles {
  const mounted = join(input.secretsDir, NOTICE_KEY_FILE);
  let dir = input.secretsDir;
  if (!existsSync(mounted)) {
    if (input.production) {
      throw new ConfigError(
        `${mounted} is missing: production needs the notice signing key as a file (e.g. a Docker secret)`,
      );
    }
    dir = input.dataDir;
    const created = join(dir, NOTICE_KEY_FILE);
    if (createDevelopmentKeyFile(created, dir, newNoticeKey))
      input.warn(
        `l2: no ${mounted}; created a development notice signing key in ${created} (not for production)`,
      );
  }
  const previous = join(dir, PREVIOUS_NOTICE_KEY_FILE);
  return {
    current: readNoticeKey(join(dir, NOTICE_KEY_FILE)),
    previous: existsSync(previous) ? readNoticeKey(previous) : null,
  };
}

const ID_TOKEN_KEY_FILE = 'id_token_signing_key';
/** The ID-token key before the last rotation: still published in the JWKS, signs nothing. */
export const PREVIOUS_ID_TOKEN_KEY_FILE = 'id_token_signing_key.previous';

/** Reads an ID-token key file, refusing anything but an RSA private key of 2048–4096 bits (one line naming it). */
function readIdTokenKey(path: string): string {
  const pem = readFileSync(path, 'utf8');
  let bits = 0;
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    bits = key.asymmetricKeyType === 'rsa' ? (key.asymmetricKeyDetails?.modulusLength ?? 0) : 0;
  } catch {
    bits = 0;
  }
  if (bits < 2048 || bits > 4096)
    throw new ConfigError(
      `${path}: the ID-token signing key must be an RSA private key of 2048–4096 bits in PKCS#8 PEM`,
    );
  return pem;
}

/** A new 2048-bit RSA key as PKCS#8 PEM, as `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048` makes. */
const newIdTokenKey = (): string =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    format: 'pem',
    type: 'pkcs8',
  }) as string;

/**
 * The key that signs ID tokens (API.md §2.5), from the file `id_token_signing_key` in SECRETS_DIR — its own key,
 * neither the notice key nor the token secret. Outside production, without that file, one is created once in
 * `<dataDir>/id_token_signing_key` (mode 0600) and reused, as the notice key is; production without the file refuses
 * to start. `id_token_signing_key.previous` next to the current one is published too (rotation).
 */
export function loadIdTokenSigningKeys(input: {
  secretsDir: string;
  production: boolean;
  dataDir: string;
  warn: (message: string) => void;
}): NoticeKeyFiles {
  const mounted = join(input.secretsDir, ID_TOKEN_KEY_FILE);
  let dir = input.secretsDir;
  if (!existsSync(mounted)) {
    if (input.production) {
      throw new ConfigError(
        `${mounted} is missing: production needs the ID-token signing key as a file ` +
          '(openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out id_token_signing_key)',
      );
    }
    dir = input.dataDir;
    const created = join(dir, ID_TOKEN_KEY_FILE);
    if (createDevelopmentKeyFile(created, dir, newIdTokenKey))
      input.warn(
        `l2: no ${mounted}; created a development ID-token signing key in ${created} (not for production)`,
      );
  }
  const previous = join(dir, PREVIOUS_ID_TOKEN_KEY_FILE);
  return {
    current: readIdTokenKey(join(dir, ID_TOKEN_KEY_FILE)),
    previous: existsSync(previous) ? readIdTokenKey(previous) : null,
  };
}

/** The transparency log's signing key: its own file, never the JWT secret nor a user's key (API.md §8). */
export const TLOG_KEY_FILE = 'tlog_signing_key';

/**
 * The transparency log's Ed25519 signing key (PKCS#8 PEM) from `tlog_signing_key` in SECRETS_DIR. Outside
 * production, without that file, one is created once in `<dataDir>/tlog_signing_key` (mode 0600) and reused, as the
 * JWT secret is; several processes starting at once on one data directory end up with the same key. Production
 * without the file refuses to start. Every instance on one store must hold the same key: it signs the checkpoints
 * they all serve.
 */
export function loadTlogSigningKey(input: {
  secretsDir: string;
  production: boolean;
  dataDir: string;
  warn: (message: string) => void;
  /** Makes a new key (PKCS#8 PEM): given by the caller, which knows the crypto library. */
  generate: () => string;
}): string {
  const mounted = join(input.secretsDir, TLOG_KEY_FILE);
  if (existsSync(mounted)) return readFileSync(mounted, 'utf8');
  if (input.production) {
    throw new ConfigError(
      `${mounted} is missing: production needs the transparency log's Ed25519 signing key as a file ` +
        '(openssl genpkey -algorithm ed25519 -out tlog_signing_key)',
    );
  }
  const fallback = join(input.dataDir, TLOG_KEY_FILE);
  if (createDevelopmentKeyFile(fallback, input.dataDir, input.generate))
    input.warn(
      `l2: no ${mounted}; created a development transparency log key in ${fallback} (not for production)`,
    );
  return readFileSync(fallback, 'utf8');
}
