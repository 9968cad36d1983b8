import type { ClientSession, MongoClient } from 'mongodb';
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
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import { revokeIn } from './mongo-revocation-store.js';
import {
  ACCOUNT_EVENT_DOCUMENTS,
  CHALLENGE_DOCUMENTS,
  PASSKEY_DOCUMENTS,
  RECOVERY_CODE_DOCUMENTS,
  recoveryCodeId,
  TOTP_ENROLMENT_DOCUMENTS,
  TOTP_FACTOR_DOCUMENTS,
} from './codecs/security-documents.js';
import { withoutId } from './mongo-codec.js';
import type { MongoCollections } from './mongo-schema.js';
import { transaction } from './mongo-transactions.js';
import { LIVE_USERS } from './mongo-user-repository.js';

/** A record of one account's collection without the account's name: what the account's factors list. */
const withoutUsername = <T extends { username: Username }>({
  username: _,
  ...rest
}: T): Omit<T, 'username'> => rest;

/**
 * Account security on MongoDB: `apply` and a recovery code's use are transactions (mongo-transactions.ts); the
 * TOTP step, the passkey counter and the challenges are single-document compare-and-set operations, atomic as they
 * are. Every challenge read checks `expiresAt` on L2's clock; the TTL index only removes the leftovers.
 */
export class MongoAccountSecurityStore implements AccountSecurityStore {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async factors(username: Username): Promise<AccountFactors> {
    const { totpFactors, totpEnrolments, recoveryCodes, passkeys } = this.collections;
    return storeCall(async () => {
      const totp = await totpFactors.findOne({ _id: username });
      const enrolment = await totpEnrolments.findOne({ _id: username });
      const codes = await recoveryCodes.find({ username }).toArray();
      const keys = await passkeys.find({ username }).sort({ createdAt: 1, _id: 1 }).toArray();
      return {
        totp: totp ? withoutUsername(TOTP_FACTOR_DOCUMENTS.fromDocument(totp)) : null,
        enrolment: enrolment ? withoutUsername(TOTP_ENROLMENT_DOCUMENTS.fromDocument(enrolment)) : null,
        recoveryCodes: codes.map((code) => withoutUsername(RECOVERY_CODE_DOCUMENTS.fromDocument(code))),
        passkeys: keys.map((key) => PASSKEY_DOCUMENTS.fromDocument(key)),
      };
    });
  }

  async findPasskey(credentialId: string): Promise<Passkey | null> {
    const doc = await storeCall(() => this.collections.passkeys.findOne({ _id: credentialId }));
    return doc ? PASSKEY_DOCUMENTS.fromDocument(doc) : null;
  }

  async history(username: Username, limit: number): Promise<AccountEvent[]> {
    if (limit <= 0) return [];
    const docs = await storeCall(() =>
      this.collections.accountEvents.find({ username }).sort({ at: -1, _id: -1 }).limit(limit).toArray(),
    );
    return docs.map((doc) => ACCOUNT_EVENT_DOCUMENTS.fromDocument(doc));
  }

  async apply(change: SecurityChange, now: Date): Promise<SecurityChangeOutcome> {
    return storeCall(() =>
      transaction<SecurityChangeOutcome>(this.client, async (session, refuse) => {
        const { users } = this.collections;
        const live = await users.findOne(
          { _id: change.username, ...LIVE_USERS },
          { session, projection: { _id: 1 } },
        );
        if (!live) refuse({ type: 'not_found' });
        await this.changeIn(change, now, session, refuse);
        const revoked = await revokeIn(this.collections, change.revocations ?? [], now, session);
        if (change.passwordHash !== undefined)
          await users.updateOne(
            { _id: change.username },
            { $set: { passwordHash: change.passwordHash } },
            { session },
          );
        if (change.events.length > 0)
          await this.collections.accountEvents.insertMany(
            change.events.map((event) => ACCOUNT_EVENT_DOCUMENTS.toDocument(event)),
            { session },
          );
        return { type: 'applied', revoked };
      }),
    );
  }

  /** The factor changes of `apply`, in its transaction. */
  private async changeIn(
    change: SecurityChange,
    now: Date,
    session: ClientSession,
    refuse: (outcome: SecurityChangeOutcome) => never,
  ): Promise<void> {
    const { authChallenges, passkeys, totpFactors, totpEnrolments, recoveryCodes } = this.collections;
    const { username } = change;
    if (change.consumes) {
      const { idHash, kind } = change.consumes;
      const consumed = await authChallenges.deleteOne(
        { _id: idHash, kind, username, expiresAt: { $gt: now } },
        { session },
      );
      if (consumed.deletedCount !== 1) refuse({ type: 'challenge_gone' });
    }
    if (change.removePasskey !== undefined) {
      const removed = await passkeys.deleteOne({ _id: change.removePasskey, username }, { session });
      if (removed.deletedCount !== 1) refuse({ type: 'not_found' });
    }
    if (change.removeAllPasskeys) await passkeys.deleteMany({ username }, { session });
    if (change.addPasskey) {
      // Looked up first: a duplicate key inside a transaction aborts it on the server.
      if (
        await passkeys.findOne({ _id: change.addPasskey.credentialId }, { session, projection: { _id: 1 } })
      )
        refuse({ type: 'passkey_taken' });
      await passkeys.insertOne(PASSKEY_DOCUMENTS.toDocument(change.addPasskey), { session });
    }
    if (change.totp === null) await totpFactors.deleteOne({ _id: username }, { session });
    else if (change.totp) {
      const doc = TOTP_FACTOR_DOCUMENTS.toDocument({ ...change.totp, username });
      await totpFactors.replaceOne({ _id: username }, withoutId(doc), { session, upsert: true });
    }
    if (change.enrolment === null) await totpEnrolments.deleteOne({ _id: username }, { session });
    else if (change.enrolment) {
      const doc = TOTP_ENROLMENT_DOCUMENTS.toDocument({ ...change.enrolment, username });
      await totpEnrolments.replaceOne({ _id: username }, withoutId(doc), { session, upsert: true });
    }
    if (change.recoveryCodeHashes !== undefined) {
      await recoveryCodes.deleteMany({ username }, { session });
      if (change.recoveryCodeHashes.length > 0)
        await recoveryCodes.insertMany(
          change.recoveryCodeHashes.map((hash) =>
            RECOVERY_CODE_DOCUMENTS.toDocument({ username, hash, usedAt: null }),
          ),
          { session },
        );
    }
  }

  async useTotpStep(username: Username, step: number): Promise<boolean> {
    const updated = await storeCall(() =>
      this.collections.totpFactors.updateOne(
        { _id: username, lastUsedStep: { $lt: step } },
        { $set: { lastUsedStep: step } },
      ),
    );
    return updated.modifiedCount === 1;
  }

  async useRecoveryCode(username: Username, hash: string, event: AccountEvent): Promise<boolean> {
    return storeCall(() =>
      transaction<boolean>(this.client, async (session, refuse) => {
        const used = await this.collections.recoveryCodes.updateOne(
          { _id: recoveryCodeId(username, hash), usedAt: null },
          { $set: { usedAt: event.at } },
          { session },
        );
        if (used.modifiedCount !== 1) refuse(false);
        await this.collections.accountEvents.insertOne(ACCOUNT_EVENT_DOCUMENTS.toDocument(event), {
          session,
        });
        return true;
      }),
    );
  }

  async usePasskey(
    credentialId: string,
    previousCounter: number,
    counter: number,
    now: Date,
  ): Promise<boolean> {
    const updated = await storeCall(() =>
      this.collections.passkeys.updateOne(
        { _id: credentialId, counter: previousCounter },
        { $set: { counter, lastUsedAt: now } },
      ),
    );
    return updated.matchedCount === 1;
  }

  async putChallenge(challenge: Challenge, options: { readonly exclusive?: boolean } = {}): Promise<void> {
    const doc = CHALLENGE_DOCUMENTS.toDocument(challenge);
    const { authChallenges } = this.collections;
    if (!options.exclusive) {
      await storeCall(async () => {
        try {
          await authChallenges.insertOne(doc);
        } catch (error) {
          // The hash of 32 random bytes: a duplicate is a retried insert that had landed.
          if (!isDuplicateKey(error)) throw error;
        }
      });
      return;
    }
    await storeCall(() =>
      transaction<void>(this.client, async (session) => {
        await authChallenges.deleteMany({ kind: challenge.kind, username: challenge.username }, { session });
        await authChallenges.insertOne(doc, { session });
      }),
    );
  }

  async findChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    const doc = await storeCall(() =>
      this.collections.authChallenges.findOne({ _id: idHash, kind, expiresAt: { $gt: now } }),
    );
    return doc ? CHALLENGE_DOCUMENTS.fromDocument(doc) : null;
  }

  async takeChallenge(idHash: string, kind: ChallengeKind, now: Date): Promise<Challenge | null> {
    const doc = await storeCall(() =>
      this.collections.authChallenges.findOneAndDelete({ _id: idHash, kind, expiresAt: { $gt: now } }),
    );
    return doc ? CHALLENGE_DOCUMENTS.fromDocument(doc) : null;
  }

  async deleteExpiredChallenges(now: Date): Promise<number> {
    const result = await storeCall(() =>
      this.collections.authChallenges.deleteMany({ expiresAt: { $lte: now } }),
    );
    return result.deletedCount;
  }
}
