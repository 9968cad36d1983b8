import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fresh RSA ID-token signing key, PKCS#8 PEM, as an operator makes one with openssl. */
export const newIdTokenKeyPem = (modulusLength = 2048): string =>
  generateKeyPairSync('rsa', { modulusLength }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;

let shared: string | null = null;
/** One key per test process: RSA keys take a while to make, and no test of a server needs its own. */
export const testIdTokenKeyPem = (): string => (shared ??= newIdTokenKeyPem());

/** Writes `id_token_signing_key` (and `.previous` when given) into a secrets directory; returns the current key. */
export function writeIdTokenKey(dir: string, options: { previous?: string; fresh?: boolean } = {}): string {
  const pem = options.fresh ? newIdTokenKeyPem() : testIdTokenKeyPem();
  writeFileSync(join(dir, 'id_token_signing_key'), pem, { mode: 0o600 });
  if (options.previous !== undefined)
    writeFileSync(join(dir, 'id_token_signing_key.previous'), options.previous, { mode: 0o600 });
  return pem;
}
