import type {
  AccountEvent,
  Challenge,
  Passkey,
  RecoveryCode,
  TotpEnrolment,
  TotpFactor,
} from '../../../domain/account-security.js';

/** The tables of account security in the in-memory store (a part of MemoryDatabase). */
export class MemorySecurityTables {
  readonly totp = new Map<string, TotpFactor>();
  readonly enrolments = new Map<string, TotpEnrolment>();
  readonly recoveryCodes = new Map<string, RecoveryCode[]>();
  /** Every passkey by credential id, in the order they were added. */
  readonly passkeys = new Map<string, Passkey>();
  readonly challenges = new Map<string, Challenge>();
  /** Every history entry, oldest first. */
  readonly events: AccountEvent[] = [];
}
