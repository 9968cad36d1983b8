import type {
  AccountEvent,
  AccountFactors,
  Challenge,
  ChallengeKind,
  Passkey,
  TotpEnrolment,
  TotpFactor,
} from '../../domain/account-security.js';
import type { Revocation } from '../../domain/revocation.js';
import type { Username } from '../../domain/user.js';

/**
 * One change of what protects an account, written as ONE store write (a transaction) or not at all. A field left
 * undefined is left as it is. The account must exist and not be deleted.
 */
export interface SecurityChange {
  readonly username: Username;
  /** Written only while this challenge is there, unexpired at `now`, of this kind and for this user; it is deleted. */
  readonly consumes?: { readonly idHash: string; readonly kind: ChallengeKind };
  /** The second factor: set, or (null) removed. */
  readonly totp?: TotpFactor | null;
  /** The enrolment waiting for its first code: set (replacing any), or (null) removed. */
  readonly enrolment?: TotpEnrolment | null;
  /** The recovery codes, by hash: every existing one replaced by these ([] removes them all). */
  readonly recoveryCodeHashes?: readonly string[];
  /** A new passkey; its credential id must be new to the whole store. */
  readonly addPasskey?: Passkey;
  /** The credential id of a passkey of this account to remove. */
  readonly removePasskey?: string;
  /** Removes every passkey of the account. */
  readonly removeAllPasskeys?: boolean;
  /** A new password hash. */
  readonly passwordHash?: string;
  /** Tokens to revoke, their notices queued in the same write (as RevocationStore.revoke does). */
  readonly revocations?: readonly Revocation[];
  /** What the account's history records of it. */
  readonly events: readonly AccountEvent[];
}

export type SecurityChangeOutcome =
  | { readonly type: 'applied'; readonly revoked: number }
  /** No such live account, or `removePasskey` names no passkey of it. */
  | { readonly type: 'not_found' }
  /** `consumes` found no such challenge (used, expired, another kind or user). */
  | { readonly type: 'challenge_gone' }
  /** `addPasskey`'s credential id is registered already (to anyone). */
  | { readonly type: 'passkey_taken' };

/**
 * The second factors, recovery codes, passkeys, challenges and history of accounts. Every write that changes what
 * protects an account goes through `apply`, one transaction each; the three `use…` methods are the single-use
 * checks of a sign-in, each an atomic compare-and-set, so two requests racing with one code or one counter value
 * cannot both succeed.
 */
export interface AccountSecurityStore {
  /** What protects the account (nothing for an unknown one). */
  factors(username: Username): Promise<AccountFactors>;
  /** The passkey with this credential id, whoever's it is; null when there is none. */
  findPasskey(credentialId: string): Promise<Passkey | null>;
  /** The latest `limit` entries of the account's history, newest first. */
  history(username: Username, limit: number): Promise<AccountEvent[]>;
  /** Writes `change` at `now`, all of it or (with any outcome but `applied`) nothing. */
  apply(change: SecurityChange, now: Date): Promise<SecurityChangeOutcome>;
  /**
   * Records that a TOTP code of time-step `step` was accepted — only when the account's second factor is on and its
   * last used step is below `step`. False: the code (or a later one) was used already, or the factor is off.
   */
  useTotpStep(username: Username, step: number): Promise<boolean>;
  /**
   * Marks the unused recovery code with this hash used at `event.at`, recording `event` in the same write. False
   * (writing nothing) when the account has no such unused code.
   */
  useRecoveryCode(username: Username, hash: string, event: AccountEvent): Promise<boolean>;
  /**
   * Records a passkey's use: its counter becomes `counter` and its last use `now` — only while its stored counter is
   * still `previousCounter`, so two sign-ins with one counter value cannot both pass. False otherwise.
   */
  usePasskey(credentialId: string, previousCounter: number, counter: number, now: Date): Promise<boolean>;
  /**
   * Stores a challenge. With `exclusive`, the other challenges of its kind for its user are deleted in the same write
   * (a new reset link replaces the old one).
   */
  putChallenge(challenge: Challenge, options?: { readonly exclusive?: boolean }): Promise<void>;
  /** The challenge with this hash, when it is of this kind and unexpired at `now`; it stays. */
  findChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null>;
  /**
   * Deletes and returns the challenge with this hash, when it is of this kind and unexpired at `now`: of two
   * concurrent calls, one gets it.
   */
  takeChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null>;
  /** Deletes challenges that expired before `now`; returns how many. */
  deleteExpiredChallenges(now: Date): Promise<number>;
}
