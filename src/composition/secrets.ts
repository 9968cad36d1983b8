import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
