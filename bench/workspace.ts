// A scratch directory for one run: the real secret file and the SQLite stores. Removed afterwards.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Workspace {
  readonly dir: string;
  /**
   * SECRETS_DIR: `jwt_secret` (48 random bytes in base64), `notice_signing_key` (P-256), `id_token_signing_key`
   * (RSA) and `tlog_signing_key` (Ed25519), mode 0600, as production expects.
   */
  readonly secretsDir: string;
  readonly emptyStore: string;
  readonly seededStore: string;
  remove(): void;
}

export function createWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'l2-bench-'));
  const secretsDir = join(dir, 'secrets');
  mkdirSync(secretsDir, { mode: 0o700 });
  writeFileSync(join(secretsDir, 'jwt_secret'), randomBytes(48).toString('base64'), { mode: 0o600 });
  // Production requires the notice signing key as a file too (API.md §2.1).
  const noticeKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  writeFileSync(join(secretsDir, 'notice_signing_key'), noticeKey.export({ format: 'pem', type: 'pkcs8' }), {
    mode: 0o600,
  });
  // And the ID-token signing key (API.md §2.5): RSA, 2048 bits.
  const idTokenKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  writeFileSync(
    join(secretsDir, 'id_token_signing_key'),
    idTokenKey.export({ format: 'pem', type: 'pkcs8' }),
    {
      mode: 0o600,
    },
  );
  // The transparency log's key, as production requires it: an Ed25519 key in PKCS#8 PEM.
  const tlogKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
  writeFileSync(join(secretsDir, 'tlog_signing_key'), tlogKey, { mode: 0o600 });
  return {
    dir,
    secretsDir,
    emptyStore: join(dir, 'empty', 'l2.sqlite'),
    seededStore: join(dir, 'seeded', 'l2.sqlite'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
