// CompleteSignIn: the second step of a password sign-in, by the app's code (each once) or a recovery code (each
// once), under the login limits and the day's limit of wrong app codes — on the use-case kit.
import { expect } from 'chai';
import {
  KIT_APP_CODE_FAILURES_PER_DAY,
  KIT_LOGIN_FAILURES_PER_USERNAME,
  useCaseKit,
} from '../../../support/use-case-kit.js';
import { PASSWORD, registered, type Kit } from '../accounts/account-fixtures.js';
import { appCode, HISTORY_ADDRESS, withSecondFactor } from './security-fixtures.js';

/** A password sign-in of alice, stopped at its second step: the step's challenge. */
async function secondStep(kit: Kit, password = PASSWORD): Promise<string> {
  const login = await kit.login.execute({ username: 'alice', password, clientAddress: 'a' });
  if (login.ok || login.error.type !== 'mfa_required') throw new Error('no second step');
  return login.error.challenge;
}

const complete = (kit: Kit, challenge: string, answer: { code: string } | { recoveryCode: string }) =>
  kit.useCases.completeSignIn.execute({ challenge, ...answer, clientAddress: 'a', address: HISTORY_ADDRESS });

const wrong = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');

describe('CompleteSignIn', () => {
  it('completes the sign-in with the app’s code: a session token saying password, code and both factors', async () => {
    const kit = useCaseKit();
    const { secret } = await withSecondFactor(kit, await registered(kit));

    const done = await complete(kit, await secondStep(kit), { code: appCode(kit, secret) });

    if (!done.ok) throw new Error(done.error.type);
    expect(done.value.claims.username).to.equal('alice');
    expect(done.value.claims.amr).to.deep.equal(['pwd', 'otp', 'mfa']);
    expect((await kit.verify.execute({ token: done.value.token, l1Server: null })).ok).to.equal(true);
  });

  it('accepts each app code once, and each step once', async () => {
    const kit = useCaseKit();
    const { secret } = await withSecondFactor(kit, await registered(kit));
    const code = appCode(kit, secret);
    const challenge = await secondStep(kit);
    expect((await complete(kit, challenge, { code })).ok).to.equal(true);

    expect(await complete(kit, challenge, { code })).to.deep.equal({
      ok: false,
      error: { type: 'challenge_expired' },
    });
    expect(await complete(kit, await secondStep(kit), { code })).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
  });

  it('uses a recovery code up, and the history says so', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const { recoveryCodes } = await withSecondFactor(kit, session);
    const code = recoveryCodes[0]!;

    // Typed as people type: lower case, spaces around.
    expect(
      (await complete(kit, await secondStep(kit), { recoveryCode: ` ${code.toLowerCase()} ` })).ok,
    ).to.equal(true);
    expect(await complete(kit, await secondStep(kit), { recoveryCode: code })).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
    const security = await kit.useCases.getAccountSecurity.execute(session);
    expect(security.ok && security.value.history[0]).to.deep.include({
      kind: 'recovery_code_used',
      address: HISTORY_ADDRESS,
    });
  });

  it(`refuses app codes after ${KIT_APP_CODE_FAILURES_PER_DAY} wrong one(s) a day, which no success clears, while recovery codes still sign in`, async () => {
    const kit = useCaseKit();
    const { secret, recoveryCodes } = await withSecondFactor(kit, await registered(kit));
    const first = await secondStep(kit);
    for (let i = 0; i < KIT_APP_CODE_FAILURES_PER_DAY; i++)
      expect(await complete(kit, first, { code: wrong(appCode(kit, secret)) })).to.deep.equal({
        ok: false,
        error: { type: 'invalid_credentials' },
      });
    expect((await complete(kit, first, { recoveryCode: recoveryCodes[0]! })).ok).to.equal(true);

    const next = await secondStep(kit);
    const refused = await complete(kit, next, { code: appCode(kit, secret) });
    expect(!refused.ok && refused.error.type).to.equal('rate_limited');
    expect((await complete(kit, next, { recoveryCode: recoveryCodes[1]! })).ok).to.equal(true);
  });

  it(`counts every try towards the login limits (${KIT_LOGIN_FAILURES_PER_USERNAME} per username): past them even a right code is refused`, async () => {
    const kit = useCaseKit();
    const { recoveryCodes } = await withSecondFactor(kit, await registered(kit));
    const challenge = await secondStep(kit);
    // The password login was one try; the wrong recovery codes are the others.
    for (let i = 1; i < KIT_LOGIN_FAILURES_PER_USERNAME; i++)
      expect((await complete(kit, challenge, { recoveryCode: 'AAAAA-AAAAA-AAAAA-AAAAA' })).ok).to.equal(
        false,
      );

    const refused = await complete(kit, challenge, { recoveryCode: recoveryCodes[0]! });
    expect(!refused.ok && refused.error.type).to.equal('rate_limited');
  });

  it('refuses a step that is unknown, or older than a password change', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const { secret } = await withSecondFactor(kit, session);
    expect(await complete(kit, 'not-a-step', { code: appCode(kit, secret) })).to.deep.equal({
      ok: false,
      error: { type: 'challenge_expired' },
    });
    const challenge = await secondStep(kit);
    const changed = await kit.changePassword.execute({
      session,
      currentPassword: PASSWORD,
      newPassword: 'battery staple',
      clientAddress: 'b',
    });
    expect(changed.ok).to.equal(true);
    expect(await complete(kit, challenge, { code: appCode(kit, secret) })).to.deep.equal({
      ok: false,
      error: { type: 'challenge_expired' },
    });
  });
});
