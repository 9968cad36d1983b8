import { expect } from 'chai';
import type { SecurityChange } from '../../src/application/ports/account-security-store.js';
import type { AccountEvent, Challenge, Passkey } from '../../src/domain/account-security.js';
import type { Username } from '../../src/domain/user.js';
import {
  aRevocation,
  aTokenHash,
  aUser,
  aUsername,
  anL1Server,
  later,
  MINUTE,
  T0,
} from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

export function aPasskey(overrides: Partial<Passkey> = {}): Passkey {
  return {
    credentialId: `cred-${aTokenHash()}`,
    username: aUsername('alice'),
    userHandle: 'handle-alice',
    name: 'Phone',
    publicKey: 'pQECAyYgASFYIA',
    counter: 0,
    transports: ['internal', 'hybrid'],
    backupEligible: false,
    createdAt: T0,
    lastUsedAt: null,
    ...overrides,
  };
}

const anEvent = (username: Username, kind: AccountEvent['kind'], at: Date, detail: string | null = null) => ({
  username,
  kind,
  detail,
  at,
  address: '192.0.2.7',
});

export function accountSecurityStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: AccountSecurityStore`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');
    const now = later(MINUTE);
    const security = () => store().accountSecurity;
    const apply = (change: SecurityChange, at = now) => security().apply(change, at);

    beforeEach(async () => {
      await store().users.create(aUser({ username: alice }));
      await store().users.create(aUser({ username: bob }));
    });

    const aChallenge = (overrides: Partial<Challenge> = {}): Challenge => ({
      idHash: aTokenHash(),
      kind: 'second_step',
      username: alice,
      data: { password: 'mark' },
      expiresAt: later(5 * MINUTE, now),
      ...overrides,
    });

    it('holds nothing for an account that never set anything up', async () => {
      expect(await security().factors(alice)).to.deep.equal({
        totp: null,
        enrolment: null,
        recoveryCodes: [],
        passkeys: [],
      });
      expect(await security().history(alice, 10)).to.deep.equal([]);
    });

    it('turns the second factor on with its recovery codes and the history entry, all in one write', async () => {
      await apply({ username: alice, enrolment: { secret: 'PENDING', createdAt: T0 }, events: [] });
      const outcome = await apply({
        username: alice,
        totp: { secret: 'SECRET', enabledAt: now, lastUsedStep: 7 },
        enrolment: null,
        recoveryCodeHashes: ['h1', 'h2'],
        events: [anEvent(alice, 'second_factor_enabled', now)],
      });

      expect(outcome).to.deep.equal({ type: 'applied', revoked: 0 });
      const factors = await security().factors(alice);
      expect(factors.totp).to.deep.equal({ secret: 'SECRET', enabledAt: now, lastUsedStep: 7 });
      expect(factors.enrolment).to.equal(null);
      expect(factors.recoveryCodes).to.have.deep.members([
        { hash: 'h1', usedAt: null },
        { hash: 'h2', usedAt: null },
      ]);
      expect(await security().history(alice, 10)).to.deep.equal([
        anEvent(alice, 'second_factor_enabled', now),
      ]);
      expect((await security().factors(bob)).totp).to.equal(null);
    });

    it('writes nothing at all for an account that does not exist or is deleted', async () => {
      const change = {
        username: aUsername('nobody'),
        totp: { secret: 'S', enabledAt: now, lastUsedStep: 0 },
        events: [anEvent(aUsername('nobody'), 'second_factor_enabled', now)],
      };
      expect(await apply(change)).to.deep.equal({ type: 'not_found' });
      expect(await security().history(aUsername('nobody'), 10)).to.deep.equal([]);
    });

    it('replaces every recovery code at once: the old ones are gone', async () => {
      await apply({ username: alice, recoveryCodeHashes: ['old1', 'old2'], events: [] });
      await apply({ username: alice, recoveryCodeHashes: ['new1'], events: [] });

      expect((await security().factors(alice)).recoveryCodes).to.deep.equal([{ hash: 'new1', usedAt: null }]);
      await apply({ username: alice, recoveryCodeHashes: [], events: [] });
      expect((await security().factors(alice)).recoveryCodes).to.deep.equal([]);
    });

    it('uses a recovery code once, recording its use in the history in the same write', async () => {
      await apply({ username: alice, recoveryCodeHashes: ['h1', 'h2'], events: [] });
      const used = anEvent(alice, 'recovery_code_used', now);

      expect(await security().useRecoveryCode(alice, 'h1', used)).to.equal(true);
      expect(await security().useRecoveryCode(alice, 'h1', used)).to.equal(false);
      expect(await security().useRecoveryCode(bob, 'h2', anEvent(bob, 'recovery_code_used', now))).to.equal(
        false,
      );
      expect(await security().useRecoveryCode(alice, 'unknown', used)).to.equal(false);

      const codes = (await security().factors(alice)).recoveryCodes;
      expect(codes).to.have.deep.members([
        { hash: 'h1', usedAt: now },
        { hash: 'h2', usedAt: null },
      ]);
      expect(await security().history(alice, 10)).to.deep.equal([used]);
      expect(await security().history(bob, 10)).to.deep.equal([]);
    });

    it('lets exactly one of many concurrent uses of one recovery code through', async () => {
      await apply({ username: alice, recoveryCodeHashes: ['h1'], events: [] });
      const uses = await Promise.all(
        Array.from({ length: 10 }, () =>
          security().useRecoveryCode(alice, 'h1', anEvent(alice, 'recovery_code_used', now)),
        ),
      );
      expect(uses.filter(Boolean)).to.have.length(1);
      expect(await security().history(alice, 20)).to.have.length(1);
    });

    it('accepts a TOTP time-step only after the last one used, and only while the factor is on', async () => {
      expect(await security().useTotpStep(alice, 100)).to.equal(false);
      await apply({ username: alice, totp: { secret: 'S', enabledAt: now, lastUsedStep: 100 }, events: [] });

      expect(await security().useTotpStep(alice, 100)).to.equal(false);
      expect(await security().useTotpStep(alice, 99)).to.equal(false);
      expect(await security().useTotpStep(alice, 101)).to.equal(true);
      expect(await security().useTotpStep(alice, 101)).to.equal(false);
      expect((await security().factors(alice)).totp?.lastUsedStep).to.equal(101);

      const racing = await Promise.all(Array.from({ length: 10 }, () => security().useTotpStep(alice, 102)));
      expect(racing.filter(Boolean)).to.have.length(1);
    });

    it('turns the second factor off with its recovery codes', async () => {
      await apply({
        username: alice,
        totp: { secret: 'S', enabledAt: now, lastUsedStep: 0 },
        recoveryCodeHashes: ['h1'],
        events: [],
      });
      await apply({
        username: alice,
        totp: null,
        enrolment: null,
        recoveryCodeHashes: [],
        events: [anEvent(alice, 'second_factor_disabled', now)],
      });

      const factors = await security().factors(alice);
      expect(factors.totp).to.equal(null);
      expect(factors.recoveryCodes).to.deep.equal([]);
    });

    it('adds passkeys, finds them by credential id, and lists an account’s own', async () => {
      const phone = aPasskey({ username: alice, name: 'Phone', createdAt: T0 });
      const laptop = aPasskey({
        username: alice,
        name: 'Laptop',
        createdAt: later(1000),
        backupEligible: true,
      });
      const bobs = aPasskey({ username: bob, userHandle: 'handle-bob' });
      for (const passkey of [phone, laptop, bobs])
        expect(await apply({ username: passkey.username, addPasskey: passkey, events: [] })).to.deep.equal({
          type: 'applied',
          revoked: 0,
        });

      expect((await security().factors(alice)).passkeys).to.deep.equal([phone, laptop]);
      expect(await security().findPasskey(bobs.credentialId)).to.deep.equal(bobs);
      expect(await security().findPasskey('unknown')).to.equal(null);
    });

    it('refuses a credential id registered already, to anyone, writing nothing', async () => {
      const phone = aPasskey({ username: alice });
      await apply({ username: alice, addPasskey: phone, events: [] });

      const again = await apply({
        username: bob,
        addPasskey: { ...phone, username: bob },
        events: [anEvent(bob, 'passkey_added', now, 'Phone')],
      });

      expect(again).to.deep.equal({ type: 'passkey_taken' });
      expect(await security().history(bob, 10)).to.deep.equal([]);
      expect((await security().findPasskey(phone.credentialId))?.username).to.equal(alice);
    });

    it('removes a passkey of the account only, and every passkey at once', async () => {
      const phone = aPasskey({ username: alice });
      const laptop = aPasskey({ username: alice });
      const bobs = aPasskey({ username: bob });
      for (const passkey of [phone, laptop, bobs])
        await apply({ username: passkey.username, addPasskey: passkey, events: [] });

      expect(
        await apply({
          username: alice,
          removePasskey: bobs.credentialId,
          events: [anEvent(alice, 'passkey_removed', now)],
        }),
      ).to.deep.equal({ type: 'not_found' });
      expect(await security().history(alice, 10)).to.deep.equal([]);
      await apply({ username: alice, removePasskey: phone.credentialId, events: [] });
      expect((await security().factors(alice)).passkeys).to.deep.equal([laptop]);
      await apply({ username: alice, removeAllPasskeys: true, events: [] });
      expect((await security().factors(alice)).passkeys).to.deep.equal([]);
      expect(await security().findPasskey(bobs.credentialId)).to.deep.equal(bobs);
    });

    it('records a passkey’s use only while its counter is the one read (two uses of one value: one passes)', async () => {
      const phone = aPasskey({ username: alice, counter: 5 });
      await apply({ username: alice, addPasskey: phone, events: [] });

      expect(await security().usePasskey(phone.credentialId, 4, 6, now)).to.equal(false);
      const racing = await Promise.all(
        Array.from({ length: 5 }, () => security().usePasskey(phone.credentialId, 5, 6, now)),
      );
      expect(racing.filter(Boolean)).to.have.length(1);
      const used = await security().findPasskey(phone.credentialId);
      expect(used).to.deep.include({ counter: 6, lastUsedAt: now });
    });

    it('keeps a challenge until it is taken once, or expires', async () => {
      const challenge = aChallenge();
      await security().putChallenge(challenge);

      expect(await security().findChallenge(challenge.idHash, 'second_step', now)).to.deep.equal(challenge);
      expect(await security().findChallenge(challenge.idHash, 'password_reset', now)).to.equal(null);
      expect(await security().findChallenge(challenge.idHash, 'second_step', challenge.expiresAt)).to.equal(
        null,
      );
      const taken = await Promise.all(
        Array.from({ length: 5 }, () => security().takeChallenge(challenge.idHash, 'second_step', now)),
      );
      expect(taken.filter((c) => c !== null)).to.deep.equal([challenge]);
      expect(await security().findChallenge(challenge.idHash, 'second_step', now)).to.equal(null);
    });

    it('does not hand out an expired challenge, and forgets expired ones on clean-up', async () => {
      const expiring = aChallenge({ expiresAt: later(MINUTE, now) });
      const lasting = aChallenge({
        expiresAt: later(10 * MINUTE, now),
        kind: 'passkey_sign_in',
        username: null,
      });
      await security().putChallenge(expiring);
      await security().putChallenge(lasting);
      const after = later(2 * MINUTE, now);

      expect(await security().takeChallenge(expiring.idHash, 'second_step', after)).to.equal(null);
      expect(await security().deleteExpiredChallenges(after)).to.equal(1);
      expect(await security().findChallenge(lasting.idHash, 'passkey_sign_in', after)).to.deep.equal(lasting);
    });

    it('replaces the other challenges of its kind and account when exclusive (a new reset link)', async () => {
      const first = aChallenge({ kind: 'password_reset', data: { clearFactors: false } });
      const bobs = aChallenge({ kind: 'password_reset', username: bob, data: { clearFactors: false } });
      const step = aChallenge();
      const second = aChallenge({ kind: 'password_reset', data: { clearFactors: true } });
      for (const c of [first, bobs, step]) await security().putChallenge(c);
      await security().putChallenge(second, { exclusive: true });

      expect(await security().findChallenge(first.idHash, 'password_reset', now)).to.equal(null);
      expect(await security().findChallenge(second.idHash, 'password_reset', now)).to.deep.equal(second);
      expect(await security().findChallenge(bobs.idHash, 'password_reset', now)).to.deep.equal(bobs);
      expect(await security().findChallenge(step.idHash, 'second_step', now)).to.deep.equal(step);
    });

    it('applies a reset in one write: the link used up, the password, revocations with notices, factors cleared', async () => {
      const link = aChallenge({ kind: 'password_reset', data: { clearFactors: true } });
      await security().putChallenge(link);
      await apply({
        username: alice,
        totp: { secret: 'S', enabledAt: now, lastUsedStep: 0 },
        recoveryCodeHashes: ['h'],
        addPasskey: aPasskey({ username: alice }),
        events: [],
      });
      const session = aRevocation({ username: alice });
      const scoped = aRevocation({
        username: alice,
        sessionJti: 's',
        l1Server: anL1Server('https://l1.example'),
      });
      const reset: SecurityChange = {
        username: alice,
        consumes: { idHash: link.idHash, kind: 'password_reset' },
        passwordHash: 'NEW-HASH',
        revocations: [session, scoped],
        totp: null,
        enrolment: null,
        recoveryCodeHashes: [],
        removeAllPasskeys: true,
        events: [anEvent(alice, 'password_reset', now), anEvent(alice, 'factors_cleared', now)],
      };

      expect(await apply(reset)).to.deep.equal({ type: 'applied', revoked: 2 });
      expect((await store().users.findByUsername(alice))?.passwordHash).to.equal('NEW-HASH');
      expect(await store().revocations.isRevoked(session.record.tokenHash)).to.equal(true);
      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 0 });
      expect(await security().factors(alice)).to.deep.equal({
        totp: null,
        enrolment: null,
        recoveryCodes: [],
        passkeys: [],
      });
      expect((await security().history(alice, 10)).map((e) => e.kind)).to.have.members([
        'password_reset',
        'factors_cleared',
      ]);

      // The link is used: the same write again changes nothing.
      expect(await apply({ ...reset, passwordHash: 'OTHER' })).to.deep.equal({ type: 'challenge_gone' });
      expect((await store().users.findByUsername(alice))?.passwordHash).to.equal('NEW-HASH');
      expect(await security().history(alice, 10)).to.have.length(2);
    });

    it('refuses a write that would use another account’s, an expired or another kind of challenge', async () => {
      const bobsLink = aChallenge({ kind: 'password_reset', username: bob, data: {} });
      const expired = aChallenge({ kind: 'password_reset', expiresAt: now, data: {} });
      await security().putChallenge(bobsLink);
      await security().putChallenge(expired);
      const change = (idHash: string): SecurityChange => ({
        username: alice,
        consumes: { idHash, kind: 'password_reset' },
        passwordHash: 'NEW',
        events: [anEvent(alice, 'password_reset', now)],
      });

      expect(await apply(change(bobsLink.idHash))).to.deep.equal({ type: 'challenge_gone' });
      expect(await apply(change(expired.idHash))).to.deep.equal({ type: 'challenge_gone' });
      expect(await security().findChallenge(bobsLink.idHash, 'password_reset', now)).to.deep.equal(bobsLink);
      expect((await store().users.findByUsername(alice))?.passwordHash).not.to.equal('NEW');
      expect(await security().history(alice, 10)).to.deep.equal([]);
    });

    it('gives the latest history entries first, as many as asked', async () => {
      for (let i = 0; i < 5; i++)
        await apply({
          username: alice,
          events: [anEvent(alice, 'passkey_added', later(i * MINUTE, now), `key ${i}`)],
        });

      const latest = await security().history(alice, 3);
      expect(latest.map((e) => e.detail)).to.deep.equal(['key 4', 'key 3', 'key 2']);
      expect(await security().history(alice, 0)).to.deep.equal([]);
    });
  });
}
