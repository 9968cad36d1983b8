import { RECOVERY_CODE_COUNT } from '../../../domain/account-security.js';
import { canonicalRecoveryCode } from '../../../domain/recovery-code.js';
import type { SecretGenerator } from '../../ports/secret-generator.js';

/** A new set of recovery codes: the texts (shown once) and their hashes (stored). */
export function newRecoveryCodes(secrets: SecretGenerator): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => secrets.newRecoveryCode());
  return { codes, hashes: codes.map((code) => secrets.digest(canonicalRecoveryCode(code)!)) };
}
