// Passkeys on the use-case kit, answered by a software authenticator (WebAuthn in node:crypto, for the tests):
// StartPasskeyRegistration, AddPasskey, RemovePasskey, StartPasskeySignIn and SignInWithPasskey.
import { expect } from 'chai';
import { SoftAuthenticator } from '../../../support/soft-authenticator.js';
import {
  KIT_ADDRESS,
  KIT_L2,
  KIT_PASSKEY_CHALLENGES_PER_ADDRESS,
  useCaseKit,
} from '../../../support/use-case-kit.js';
import { attached, registered, type Kit } from '../accounts/account-fixtures.js';
import { askedBy, HISTORY_ADDRESS, passkeyAnswer, withPasskey } from './security-fixtures.js';

const passkeysOf = async (kit: Kit, session: Awaited<ReturnType<typeof registered>>) => {
  const view = await kit.useCases.getAccountSecurity.execute(session);
  if (!view.ok) throw new Error(view.error.type);
  return view.value.passkeys;
};

describe('StartPasskeyRegistration', () => {
  it('gives options for the account on the service’s host, with a user handle kept for every passkey of the account and the ones it has excluded', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const first = await kit.useCases.startPasskeyRegistration.execute(session);
    if (!first.ok) throw new Error(first.error.type);
    const options = first.value as { rp: { id: string }; user: { id: string; name: string } };
    expect(options.rp.id).to.equal('l2.example');
    expect(options.user.name).to.equal('alice');
    await withPasskey(kit, session);

    const again = await kit.useCases.startPasskeyRegistration.execute(session);
    if (!again.ok) throw new Error(again.error.type);
    const next = again.value as { user: { id: string }; excludeCredentials: { id: string }[] };
    const [passkey] = await passkeysOf(kit, session);
    expect(next.excludeCredentials.map((c) => c.id)).to.deep.equal([passkey!.id]);
    // Every later passkey of the account gets the handle of its first: an authenticator keeps one per account.
    const [stored] = (await kit.store.accountSecurity.factors(session.claims.username)).passkeys;
    expect(next.user.id).to.equal(stored!.userHandle);
    const third = await kit.useCases.startPasskeyRegistration.execute(session);
    expect(third.ok && (third.value as { user: { id: string } }).user.id).to.equal(stored!.userHandle);
  });

  it('refuses a token scoped to an L1 server', async () => {
    const kit = useCaseKit();
    const scoped = await attached(kit, await registered(kit), 'https://l1.example');
    expect(await kit.useCases.startPasskeyRegistration.execute(scoped)).to.deep.equal({
      ok: false,
      error: { type: 'forbidden' },
    });
  });
});

describe('AddPasskey', () => {
  it('adds the passkey under its name, with the history, for the password’s owner', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const options = await kit.useCases.startPasskeyRegistration.execute(session);
    if (!options.ok) throw new Error(options.error.type);
    const phone = new SoftAuthenticator(KIT_L2);

    const added = await kit.useCases.addPasskey.execute({
      ...askedBy(session),
      name: '  My   phone ',
      response: phone.register(options.value),
    });

    if (!added.ok) throw new Error(added.error.type);
    expect(added.value).to.deep.include({ name: 'My phone', kind: 'hwk', lastUsedAt: null });
    expect(await passkeysOf(kit, session)).to.deep.equal([added.value]);
    const view = await kit.useCases.getAccountSecurity.execute(session);
    expect(view.ok && view.value.history[0]).to.deep.include({
      kind: 'passkey_added',
      detail: 'My phone',
      address: HISTORY_ADDRESS,
    });
  });

  it('uses its challenge once: the same answer again is refused', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const options = await kit.useCases.startPasskeyRegistration.execute(session);
    if (!options.ok) throw new Error(options.error.type);
    const response = new SoftAuthenticator(KIT_L2).register(options.value);
    expect(
      (await kit.useCases.addPasskey.execute({ ...askedBy(session), name: 'Phone', response })).ok,
    ).to.equal(true);
    expect(
      await kit.useCases.addPasskey.execute({ ...askedBy(session), name: 'Phone', response }),
    ).to.deep.equal({
      ok: false,
      error: { type: 'challenge_expired' },
    });
    expect(await passkeysOf(kit, session)).to.have.length(1);
  });

  it('refuses without the password, or without a name, and adds nothing', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const options = await kit.useCases.startPasskeyRegistration.execute(session);
    if (!options.ok) throw new Error(options.error.type);
    const response = new SoftAuthenticator(KIT_L2).register(options.value);
    const unnamed = await kit.useCases.addPasskey.execute({ ...askedBy(session), name: '   ', response });
    expect(!unnamed.ok && unnamed.error).to.deep.include({ type: 'invalid_request', path: 'name' });
    expect(
      await kit.useCases.addPasskey.execute({ ...askedBy(session, 'wrong horse'), name: 'Phone', response }),
    ).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
    expect(await passkeysOf(kit, session)).to.deep.equal([]);
  });
});

describe('RemovePasskey', () => {
  it('removes one of the person’s passkeys: it signs in no more', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const { phone, id } = await withPasskey(kit, session);

    expect(await kit.useCases.removePasskey.execute({ ...askedBy(session), id })).to.deep.equal({
      ok: true,
      value: { removed: true },
    });

    expect(await passkeysOf(kit, session)).to.deep.equal([]);
    expect(await kit.useCases.signInWithPasskey.execute(await passkeyAnswer(kit, phone))).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
  });

  it('treats another account’s passkey as one that does not exist', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    const bob = await registered(kit, 'bob');
    const { id } = await withPasskey(kit, bob);
    expect(await kit.useCases.removePasskey.execute({ ...askedBy(alice), id })).to.deep.equal({
      ok: false,
      error: { type: 'not_found' },
    });
    expect(await passkeysOf(kit, bob)).to.have.length(1);
  });
});

describe('StartPasskeySignIn', () => {
  it(`gives options without a username, each with a new challenge, ${KIT_PASSKEY_CHALLENGES_PER_ADDRESS} per address and window`, async () => {
    const kit = useCaseKit();
    const challenges = new Set<string>();
    for (let i = 0; i < KIT_PASSKEY_CHALLENGES_PER_ADDRESS; i++) {
      const options = await kit.useCases.startPasskeySignIn.execute(KIT_ADDRESS);
      if (!options.ok) throw new Error(options.error.type);
      const given = options.value as { rpId: string; challenge: string; allowCredentials: unknown[] };
      expect(given.rpId).to.equal('l2.example');
      expect(given.allowCredentials).to.deep.equal([]);
      challenges.add(given.challenge);
    }
    expect(challenges.size).to.equal(KIT_PASSKEY_CHALLENGES_PER_ADDRESS);

    const refused = await kit.useCases.startPasskeySignIn.execute(KIT_ADDRESS);
    expect(!refused.ok && refused.error.type).to.equal('rate_limited');
    expect((await kit.useCases.startPasskeySignIn.execute('192.0.2.99')).ok).to.equal(true);
  });
});

describe('SignInWithPasskey', () => {
  it('signs its person in with the passkey alone, as both factors, and the passkey is marked used', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const { phone } = await withPasskey(kit, session);
    kit.clock.advance(60_000);

    const signedIn = await kit.useCases.signInWithPasskey.execute(await passkeyAnswer(kit, phone));

    if (!signedIn.ok) throw new Error(signedIn.error.type);
    expect(signedIn.value.claims.username).to.equal('alice');
    expect(signedIn.value.claims.amr).to.deep.equal(['hwk', 'mfa']);
    expect((await passkeysOf(kit, session))[0]!.lastUsedAt).to.deep.equal(kit.clock.now());
  });

  it('answers a challenge once, and not after five minutes', async () => {
    const kit = useCaseKit();
    const { phone } = await withPasskey(kit, await registered(kit));
    const answer = await passkeyAnswer(kit, phone);
    expect((await kit.useCases.signInWithPasskey.execute(answer)).ok).to.equal(true);
    expect(await kit.useCases.signInWithPasskey.execute(answer)).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
    const late = await passkeyAnswer(kit, phone);
    kit.clock.advance(5 * 60_000);
    expect(await kit.useCases.signInWithPasskey.execute(late)).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
  });

  it('signs in no disabled account', async () => {
    const kit = useCaseKit();
    const { phone } = await withPasskey(kit, await registered(kit));
    expect((await kit.useCases.disableUser.execute('alice')).ok).to.equal(true);
    expect(await kit.useCases.signInWithPasskey.execute(await passkeyAnswer(kit, phone))).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
  });
});
