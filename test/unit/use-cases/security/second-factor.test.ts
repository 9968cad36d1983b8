// The authenticator app as a second factor: BeginTotpEnrolment, EnableTotp, DisableTotp, RegenerateRecoveryCodes and
// what GetAccountSecurity shows of them, on the use-case kit (memory store, fixed clock).
import { expect } from 'chai';
import { RECOVERY_CODE_COUNT } from '../../../../src/domain/account-security.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import {
  attached,
  isValid,
  loggedIn,
  noticesSent,
  PASSWORD,
  registered,
  type Kit,
} from '../accounts/account-fixtures.js';
import { appCode, askedBy, HISTORY_ADDRESS, withSecondFactor } from './security-fixtures.js';

const security = async (kit: Kit, session: Awaited<ReturnType<typeof registered>>) => {
  const view = await kit.useCases.getAccountSecurity.execute(session);
  if (!view.ok) throw new Error(view.error.type);
  return view.value;
};

/** How a password sign-in of alice ends when its second step is `recoveryCode`: `signed in`, or the refusal. */
async function signInWith(kit: Kit, recoveryCode: string): Promise<string> {
  const login = await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'a' });
  if (login.ok || login.error.type !== 'mfa_required') throw new Error('no second step');
  const done = await kit.useCases.completeSignIn.execute({
    challenge: login.error.challenge,
    recoveryCode,
    clientAddress: 'a',
    address: HISTORY_ADDRESS,
  });
  return done.ok ? 'signed in' : done.error.type;
}

describe('BeginTotpEnrolment', () => {
  it('gives a new secret for the app, as text and as the otpauth URI of the QR code, naming the service and the account', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const enrolment = await kit.useCases.beginTotpEnrolment.execute(session);
    if (!enrolment.ok) throw new Error(enrolment.error.type);
    const { secret, uri } = enrolment.value;
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).to.equal('otpauth:');
    expect(parsed.searchParams.get('secret')).to.equal(secret);
    expect(parsed.searchParams.get('issuer')).to.equal('L2 (l2.example)');
    expect(decodeURIComponent(parsed.pathname)).to.contain('alice');
    // It protects nothing yet: the password alone still signs in.
    expect((await security(kit, session)).secondFactor.enabled).to.equal(false);
    expect(
      (await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'a' })).ok,
    ).to.equal(true);
  });

  it('refuses a token scoped to an L1 server, and an account whose second factor is on already', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const scoped = await attached(kit, session, 'https://l1.example');
    expect(await kit.useCases.beginTotpEnrolment.execute(scoped)).to.deep.equal({
      ok: false,
      error: { type: 'forbidden' },
    });
    await withSecondFactor(kit, session);
    expect(await kit.useCases.beginTotpEnrolment.execute(session)).to.deep.equal({
      ok: false,
      error: { type: 'already_enabled' },
    });
  });
});

describe('EnableTotp', () => {
  it('turns the factor on with the app’s code: ten recovery codes, the history, and every other session ended', async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const scopedOfAsking = await attached(kit, asking, 'https://a.example');
    const other = await loggedIn(kit);
    const scopedOfOther = await attached(kit, other, 'https://b.example');
    const enrolment = await kit.useCases.beginTotpEnrolment.execute(asking);
    if (!enrolment.ok) throw new Error(enrolment.error.type);

    const enabled = await kit.useCases.enableTotp.execute({
      ...askedBy(asking),
      code: appCode(kit, enrolment.value.secret),
    });

    if (!enabled.ok) throw new Error(enabled.error.type);
    expect(enabled.value.recoveryCodes).to.have.length(RECOVERY_CODE_COUNT);
    expect(new Set(enabled.value.recoveryCodes).size).to.equal(RECOVERY_CODE_COUNT);
    expect(enabled.value.endedSessions).to.equal(1);
    expect(await isValid(kit, asking)).to.equal(true);
    expect(await isValid(kit, scopedOfAsking)).to.equal(true);
    expect(await isValid(kit, other)).to.equal(false);
    expect(await isValid(kit, scopedOfOther)).to.equal(false);
    expect(await noticesSent(kit)).to.deep.equal([scopedOfOther.tokenHash]);
    const view = await security(kit, asking);
    expect(view.secondFactor).to.deep.equal({ enabled: true, enabledAt: kit.clock.now() });
    expect(view.recoveryCodesLeft).to.equal(RECOVERY_CODE_COUNT);
    expect(view.history[0]).to.deep.include({ kind: 'second_factor_enabled', address: HISTORY_ADDRESS });
    const login = await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'a' });
    expect(!login.ok && login.error.type).to.equal('mfa_required');
  });

  it('refuses a code the app does not show, or a wrong password, and turns nothing on', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const enrolment = await kit.useCases.beginTotpEnrolment.execute(session);
    if (!enrolment.ok) throw new Error(enrolment.error.type);
    const code = appCode(kit, enrolment.value.secret);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    const refused = await kit.useCases.enableTotp.execute({ ...askedBy(session), code: wrongCode });
    expect(!refused.ok && refused.error).to.deep.include({ type: 'invalid_request', path: 'code' });
    expect(await kit.useCases.enableTotp.execute({ ...askedBy(session, 'wrong horse'), code })).to.deep.equal(
      {
        ok: false,
        error: { type: 'invalid_credentials' },
      },
    );
    expect((await security(kit, session)).secondFactor.enabled).to.equal(false);
  });

  it('asks for the app to be set up first', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const refused = await kit.useCases.enableTotp.execute({ ...askedBy(session), code: '123456' });
    expect(!refused.ok && refused.error).to.deep.include({ type: 'invalid_request', path: 'code' });
  });
});

describe('DisableTotp', () => {
  it('turns the factor off with its recovery codes, and the password alone signs in again', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const { recoveryCodes } = await withSecondFactor(kit, session);

    expect(await kit.useCases.disableTotp.execute(askedBy(session))).to.deep.equal({
      ok: true,
      value: { changed: true },
    });

    const view = await security(kit, session);
    expect(view.secondFactor.enabled).to.equal(false);
    expect(view.recoveryCodesLeft).to.equal(0);
    expect(view.history[0]).to.deep.include({ kind: 'second_factor_disabled' });
    expect(
      (await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'a' })).ok,
    ).to.equal(true);
    expect((await kit.store.accountSecurity.factors(session.claims.username)).recoveryCodes).to.deep.equal(
      [],
    );
    expect(recoveryCodes).to.have.length(RECOVERY_CODE_COUNT);
  });

  it('changes nothing when the factor is off, and nothing without the password', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect(await kit.useCases.disableTotp.execute(askedBy(session))).to.deep.equal({
      ok: true,
      value: { changed: false },
    });
    await withSecondFactor(kit, session);
    expect(await kit.useCases.disableTotp.execute(askedBy(session, 'wrong horse'))).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
    expect((await security(kit, session)).secondFactor.enabled).to.equal(true);
  });
});

describe('RegenerateRecoveryCodes', () => {
  it('gives ten new codes; the old ones stop working in the same write', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const { recoveryCodes: old } = await withSecondFactor(kit, session);

    const renewed = await kit.useCases.regenerateRecoveryCodes.execute(askedBy(session));

    if (!renewed.ok) throw new Error(renewed.error.type);
    expect(renewed.value.recoveryCodes).to.have.length(RECOVERY_CODE_COUNT);
    expect(renewed.value.recoveryCodes).to.not.include.members([old[0]]);
    // (A new code first: the success clears the login limits' count, which every sign-in step adds to.)
    expect(await signInWith(kit, renewed.value.recoveryCodes[0]!)).to.equal('signed in');
    expect(await signInWith(kit, old[1]!)).to.equal('invalid_credentials');
    expect((await security(kit, session)).history.map((e) => e.kind)).to.include(
      'recovery_codes_regenerated',
    );
  });

  it('refuses while the second factor is off (recovery codes stand in for it)', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect(await kit.useCases.regenerateRecoveryCodes.execute(askedBy(session))).to.deep.equal({
      ok: false,
      error: { type: 'not_enabled' },
    });
  });
});

describe('GetAccountSecurity', () => {
  it('shows the factor, the recovery codes left and the latest changes, newest first', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect(await security(kit, session)).to.deep.equal({
      secondFactor: { enabled: false, enabledAt: null },
      recoveryCodesLeft: 0,
      passkeys: [],
      history: [],
    });
    const { recoveryCodes } = await withSecondFactor(kit, session);
    expect(await signInWith(kit, recoveryCodes[3]!)).to.equal('signed in');

    const view = await security(kit, session);
    expect(view.recoveryCodesLeft).to.equal(RECOVERY_CODE_COUNT - 1);
    expect(view.history.map((e) => e.kind)).to.deep.equal(['recovery_code_used', 'second_factor_enabled']);
  });

  it('shows nothing to a token scoped to an L1 server', async () => {
    const kit = useCaseKit();
    const scoped = await attached(kit, await registered(kit), 'https://l1.example');
    expect(await kit.useCases.getAccountSecurity.execute(scoped)).to.deep.equal({
      ok: false,
      error: { type: 'forbidden' },
    });
  });
});
