import { CLEANUP_CLOCK_MARGIN_MS } from '../../../../src/application/use-cases/operations/cleanup-revocations.js';
import { expect } from 'chai';
import { normaliseL1Server, type L1ServerUrl } from '../../../../src/domain/l1-server.js';
import { KIT_ADDRESS, useCaseKit } from '../../../support/use-case-kit.js';

const DAY = 24 * 3600_000;
const l1 = (url: string) => (normaliseL1Server(url) as { value: L1ServerUrl }).value;

async function signedIn(kit: ReturnType<typeof useCaseKit>, name = 'alice') {
  const registered = await kit.register.execute({
    username: name,
    password: 'correct horse',
    clientAddress: KIT_ADDRESS,
  });
  if (!registered.ok) throw new Error('registration failed');
  const session = await kit.authenticate.authenticate(registered.value.session.token);
  if (!session.ok) throw new Error('session invalid');
  return session.value;
}

describe('token life cycle (use-cases on the memory store with a fixed clock)', () => {
  it('verifies a fresh token and refuses it once 30 days have passed', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    expect((await kit.verify.execute({ token: session.token, l1Server: null })).ok).to.equal(true);
    kit.clock.advance(30 * DAY);
    const result = await kit.verify.execute({ token: session.token, l1Server: null });
    expect(!result.ok && result.error.type).to.equal('token_expired');
  });

  it('logs in with the registered password and not with another', async () => {
    const kit = useCaseKit();
    await signedIn(kit);
    expect(
      (await kit.login.execute({ username: 'ALICE', password: 'correct horse', clientAddress: 'a' })).ok,
    ).to.equal(true);
    const wrong = await kit.login.execute({ username: 'alice', password: 'wrong horse', clientAddress: 'a' });
    expect(!wrong.ok && wrong.error.type).to.equal('invalid_credentials');
  });

  it('refuses the right password once the username is rate limited', async () => {
    const kit = useCaseKit();
    await signedIn(kit);
    for (let i = 0; i < 3; i++)
      await kit.login.execute({ username: 'alice', password: 'nope nope', clientAddress: `a${i}` });
    const limited = await kit.login.execute({
      username: 'Alice',
      password: 'correct horse',
      clientAddress: 'fresh',
    });
    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
  });

  it('revokes a session and its scoped tokens in one write, and queues one notice per scoped token', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    const a = await kit.attach.execute({ session, l1Server: l1('https://a.example') });
    const b = await kit.attach.execute({ session, l1Server: l1('https://b.example') });
    if (!a.ok || !b.ok) throw new Error('attach failed');

    const result = await kit.logout.execute({ token: session.token, everywhere: false });
    expect(result).to.deep.equal({ ok: true, value: { revoked: 3 } });
    for (const token of [session.token, a.value.token, b.value.token]) {
      expect(await kit.store.revocations.isRevoked(kit.codec.decode(token)!.tokenHash)).to.equal(true);
    }
    expect((await kit.store.queueAdministration.stats()).pending).to.equal(2);
    expect(kit.signals.count).to.equal(1);
  });

  it('answers a second logout with 0 and queues nothing more', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    await kit.attach.execute({ session, l1Server: l1('https://a.example') });
    await kit.logout.execute({ token: session.token, everywhere: false });
    expect(await kit.logout.execute({ token: session.token, everywhere: false })).to.deep.equal({
      ok: true,
      value: { revoked: 0 },
    });
    expect((await kit.store.queueAdministration.stats()).pending).to.equal(1);
  });

  it('logs out everywhere: every unexpired token of the user, and nobody else’s', async () => {
    const kit = useCaseKit();
    const first = await signedIn(kit);
    const second = await kit.login.execute({
      username: 'alice',
      password: 'correct horse',
      clientAddress: 'x',
    });
    const bob = await signedIn(kit, 'bob');
    if (!second.ok) throw new Error('login failed');
    const result = await kit.logout.execute({ token: first.token, everywhere: true });
    expect(result.ok && result.value.revoked).to.equal(2);
    expect((await kit.verify.execute({ token: second.value.token, l1Server: null })).ok).to.equal(false);
    expect((await kit.verify.execute({ token: bob.token, l1Server: null })).ok).to.equal(true);
  });

  it('revokes the new scoped token when its session is logged out while attaching', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    // The session is revoked after attach authenticated it but before attach finished.
    await kit.logout.execute({ token: session.token, everywhere: false });
    const result = await kit.attach.execute({ session, l1Server: l1('https://a.example') });
    expect(!result.ok && result.error.type).to.equal('token_revoked');
    const scoped = await kit.store.issuedTokens.listActiveScoped(
      session.claims.username,
      l1('https://a.example'),
      kit.clock.now(),
    );
    expect(scoped).to.have.length(1);
    expect(await kit.store.revocations.isRevoked(scoped[0]!.tokenHash)).to.equal(true);
  });

  it('revokes a scoped token that an attach recorded while the logout was being written', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    const revoke = kit.store.revocations.revoke.bind(kit.store.revocations);
    let raced: string | null = null;
    kit.store.revocations.revoke = async (revocations, now) => {
      if (raced === null) {
        // The attach runs entirely between the logout's listing and its commit, and sees the session still valid.
        const attached = await kit.attach.execute({ session, l1Server: l1('https://a.example') });
        raced = attached.ok ? attached.value.token : 'attach failed';
      }
      return revoke(revocations, now);
    };
    const result = await kit.logout.execute({ token: session.token, everywhere: false });
    expect(result).to.deep.equal({ ok: true, value: { revoked: 2 } });
    const verdict = await kit.verify.execute({ token: raced!, l1Server: l1('https://a.example') });
    expect(!verdict.ok && verdict.error.type).to.equal('token_revoked');
  });

  it('lets a token scoped to one L1 server neither detach nor list renderers nor log out everywhere', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    const scoped = await kit.attach.execute({ session, l1Server: l1('https://a.example') });
    if (!scoped.ok) throw new Error('attach failed');
    const held = await kit.authenticate.authenticate(scoped.value.token);
    if (!held.ok) throw new Error('scoped token invalid');
    const forbidden = { ok: false, error: { type: 'forbidden' } };
    expect(
      await kit.detach.execute({ session: held.value, l1Server: l1('https://b.example') }),
    ).to.deep.equal(forbidden);
    expect(await kit.listRenderers.execute(held.value)).to.deep.equal(forbidden);
    expect(await kit.logout.execute({ token: held.value.token, everywhere: true })).to.deep.equal(forbidden);
    expect(await kit.logout.execute({ token: held.value.token, everywhere: false })).to.deep.equal({
      ok: true,
      value: { revoked: 1 },
    });
    expect((await kit.verify.execute({ token: session.token, l1Server: null })).ok).to.equal(true);
  });

  it('refuses to attach an L1 server the destination policy forbids', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    kit.destinations.refuse = '10.0.0.1 is a private address';
    const result = await kit.attach.execute({ session, l1Server: l1('http://10.0.0.1') });
    expect(!result.ok && result.error.type).to.equal('invalid_request');
  });

  it('removes revocation records only after the tokens would have expired (and the clock margin passed)', async () => {
    const kit = useCaseKit();
    const session = await signedIn(kit);
    await kit.logout.execute({ token: session.token, everywhere: false });
    expect((await kit.cleanup.execute()).revocations).to.equal(0);
    kit.clock.advance(30 * DAY + CLEANUP_CLOCK_MARGIN_MS + 1000);
    expect(await kit.cleanup.execute()).to.deep.equal({
      revocations: 1,
      issuedTokens: 1,
      authorizationCodes: 0,
    });
    expect(await kit.store.revocations.isRevoked(session.tokenHash)).to.equal(false);
  });

  it('detaches: revokes the scoped tokens of every session for that L1 and forgets the attachment', async () => {
    const kit = useCaseKit();
    const one = await signedIn(kit);
    const twoLogin = await kit.login.execute({
      username: 'alice',
      password: 'correct horse',
      clientAddress: 'x',
    });
    if (!twoLogin.ok) throw new Error('login failed');
    const two = (await kit.authenticate.authenticate(twoLogin.value.token)) as {
      ok: true;
      value: typeof one;
    };
    const target = l1('https://a.example');
    await kit.attach.execute({ session: one, l1Server: target });
    await kit.attach.execute({ session: two.value, l1Server: target });
    const other = await kit.attach.execute({ session: one, l1Server: l1('https://b.example') });
    expect(await kit.detach.execute({ session: one, l1Server: target })).to.deep.equal({
      ok: true,
      value: { revoked: 2 },
    });
    expect(await kit.store.attachments.list(one.claims.username)).to.have.length(1);
    expect(
      other.ok &&
        (await kit.verify.execute({ token: other.value.token, l1Server: l1('https://b.example') })).ok,
    ).to.equal(true);
  });
});
