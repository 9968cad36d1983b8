import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fresh P-256 notice signing key, PKCS#8 PEM, as an operator makes one with openssl. */
export const newNoticeKeyPem = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    format: 'pem',
    type: 'pkcs8',
  }) as string;

/** Writes `notice_signing_key` (and `.previous` when given) into a secrets directory; returns the current key. */
export function writeNoticeKey(dir: string, previous?: string): string {
  const pem = newNoticeKeyPem();
  writeFileSync(join(dir, 'notice_signing_key'), pem, { mode: 0o600 });
  if (previous !== undefined)
    writeFileSync(join(dir, 'notice_signing_key.previous'), previous, { mode: 0o600 });
  return pem;
}
