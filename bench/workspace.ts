// A scratch directory for one run: the real secret file and the SQLite stores. Removed afterwards.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Workspace {
  readonly dir: string;
  /** SECRETS_DIR: holds `jwt_secret`, 48 random bytes in base64, mode 0600, as production expects. */
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
  return {
    dir,
    secretsDir,
    emptyStore: join(dir, 'empty', 'l2.sqlite'),
    seededStore: join(dir, 'seeded', 'l2.sqlite'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
