import type {
  AccountSecurityStore,
  SecurityChange,
  SecurityChangeOutcome,
} from '../../../application/ports/account-security-store.js';
import type {
  AccountEvent,
  AccountFactors,
  Challenge,
  ChallengeKind,
  Passkey,
} from '../../../domain/account-security.js';
import type { Username } from '../../../domain/user.js';
import { MemoryDatabase } from './memory-database.js';
import type { MemorySecurityTables } from './memory-security-tables.js';

const copyPasskey = (p: Passkey): Passkey => ({
  ...p,
  transports: [...p.transports],
  createdAt: new Date(p.createdAt),
  lastUsedAt: p.lastUsedAt && new Date(p.lastUsedAt),
});
const copyEvent = (e: AccountEvent): AccountEvent => ({ ...e, at: new Date(e.at) });
const copyChallenge = (c: Challenge): Challenge => ({
  ...c,
  data: { ...c.data },
  expiresAt: new Date(c.expiresAt),
});

/** Every method runs without an await between its checks and its changes: each is a transaction of its own. */
export class InMemoryAccountSecurityStore implements AccountSecurityStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  private get tables(): MemorySecurityTables {
    return this.db.security;
  }

  async factors(username: Username): Promise<AccountFactors> {
    this.db.assertOpen();
    const { totp, enrolments, recoveryCodes, passkeys } = this.tables;
    const factor = totp.get(username);
    const enrolment = enrolments.get(username);
    return {
      totp: factor ? { ...factor, enabledAt: new Date(factor.enabledAt) } : null,
      enrolment: enrolment ? { ...enrolment, createdAt: new Date(enrolment.createdAt) } : null,
      recoveryCodes: (recoveryCodes.get(username) ?? []).map((c) => ({
        ...c,
        usedAt: c.usedAt && new Date(c.usedAt),
      })),
      passkeys: [...passkeys.values()].filter((p) => p.username === username).map(copyPasskey),
    };
  }

  async findPasskey(credentialId: string): Promise<Passkey | null> {
    this.db.assertOpen();
    const found = this.tables.passkeys.get(credentialId);
    return found ? copyPasskey(found) : null;
  }

  async history(username: Username, limit: number): Promise<AccountEvent[]> {
    this.db.assertOpen();
    if (limit <= 0) return [];
    const own = this.tables.events.filter((e) => e.username === username);
    return own.slice(-limit).reverse().map(copyEvent);
  }

  async apply(change: SecurityChange, now: Date): Promise<SecurityChangeOutcome> {
    this.db.assertOpen();
    const refused = this.refusal(change, now);
    if (refused) return refused;
    const { tables } = this;
    const { username } = change;
    if (change.consumes) tables.challenges.delete(change.consumes.idHash);
    if (change.totp !== undefined) {
      if (change.totp === null) tables.totp.delete(username);
      else tables.totp.set(username, { ...change.totp });
    }
    if (change.enrolment !== undefined) {
      if (change.enrolment === null) tables.enrolments.delete(username);
      else tables.enrolments.set(username, { ...change.enrolment });
    }
    if (change.recoveryCodeHashes !== undefined) {
      if (change.recoveryCodeHashes.length === 0) tables.recoveryCodes.delete(username);
      else
        tables.recoveryCodes.set(
          username,
          change.recoveryCodeHashes.map((hash) => ({ hash, usedAt: null })),
        );
    }
    if (change.removeAllPasskeys)
      for (const [id, passkey] of tables.passkeys)
        if (passkey.username === username) tables.passkeys.delete(id);
    if (change.removePasskey !== undefined) tables.passkeys.delete(change.removePasskey);
    if (change.addPasskey)
      tables.passkeys.set(change.addPasskey.credentialId, copyPasskey(change.addPasskey));
    const revoked = this.db.revoke(change.revocations ?? [], now);
    if (change.passwordHash !== undefined) {
      const stored = this.db.users.get(username)!;
      stored.user = { ...stored.user, passwordHash: change.passwordHash };
    }
    tables.events.push(...change.events.map(copyEvent));
    return { type: 'applied', revoked };
  }

  /** Why `change` cannot be written, checked before its first change; null when it can. */
  private refusal(change: SecurityChange, now: Date): SecurityChangeOutcome | null {
    const stored = this.db.users.get(change.username);
    if (!stored || stored.user.deletedAt !== null) return { type: 'not_found' };
    if (change.removePasskey !== undefined) {
      const passkey = this.tables.passkeys.get(change.removePasskey);
      if (passkey?.username !== change.username) return { type: 'not_found' };
    }
    if (change.consumes) {
      const { idHash, kind } = change.consumes;
      const challenge = this.tables.challenges.get(idHash);
      if (!challenge || !this.fits(challenge, kind, now) || challenge.username !== change.username)
        return { type: 'challenge_gone' };
    }
    if (change.addPasskey && this.tables.passkeys.has(change.addPasskey.credentialId))
      return { type: 'passkey_taken' };
    return null;
  }

  async useTotpStep(username: Username, step: number): Promise<boolean> {
    this.db.assertOpen();
    const factor = this.tables.totp.get(username);
    if (!factor || factor.lastUsedStep >= step) return false;
    this.tables.totp.set(username, { ...factor, lastUsedStep: step });
    return true;
  }

  async useRecoveryCode(username: Username, hash: string, event: AccountEvent): Promise<boolean> {
    this.db.assertOpen();
    const codes = this.tables.recoveryCodes.get(username) ?? [];
    const at = codes.findIndex((code) => code.hash === hash && code.usedAt === null);
    if (at < 0) return false;
    codes[at] = { hash, usedAt: new Date(event.at) };
    this.tables.events.push(copyEvent(event));
    return true;
  }

  async usePasskey(
    credentialId: string,
    previousCounter: number,
    counter: number,
    now: Date,
  ): Promise<boolean> {
    this.db.assertOpen();
    const passkey = this.tables.passkeys.get(credentialId);
    if (!passkey || passkey.counter !== previousCounter) return false;
    this.tables.passkeys.set(credentialId, { ...passkey, counter, lastUsedAt: new Date(now) });
    return true;
  }

  async putChallenge(challenge: Challenge, options: { readonly exclusive?: boolean } = {}): Promise<void> {
    this.db.assertOpen();
    const { challenges } = this.tables;
    if (options.exclusive)
      for (const [idHash, other] of challenges)
        if (other.kind === challenge.kind && other.username === challenge.username) challenges.delete(idHash);
    challenges.set(challenge.idHash, copyChallenge(challenge));
  }

  async findChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    this.db.assertOpen();
    const found = this.tables.challenges.get(idHash);
    return found && this.fits(found, kind, now) ? copyChallenge(found) : null;
  }

  async takeChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    this.db.assertOpen();
    const found = this.tables.challenges.get(idHash);
    if (!found || !this.fits(found, kind, now)) return null;
    this.tables.challenges.delete(idHash);
    return copyChallenge(found);
  }

  async deleteExpiredChallenges(now: Date): Promise<number> {
    this.db.assertOpen();
    let deleted = 0;
    for (const [idHash, challenge] of this.tables.challenges)
      if (challenge.expiresAt.getTime() <= now.getTime()) {
        this.tables.challenges.delete(idHash);
        deleted++;
      }
    return deleted;
  }

  private fits(challenge: Challenge, kind: ChallengeKind, now: Date): boolean {
    return challenge.kind === kind && challenge.expiresAt.getTime() > now.getTime();
  }
}
