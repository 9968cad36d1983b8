import { expect } from 'chai';
import { normaliseL1Server, type L1ServerUrl } from '../../../src/domain/l1-server.js';
import { KIT_ADDRESS, useCaseKit } from '../../support/use-case-kit.js';

const l1 = (url: string) => (normaliseL1Server(url) as { value: L1ServerUrl }).value;

async function queueOneNotice(kit: ReturnType<typeof useCaseKit>) {
  const registered = await kit.register.execute({
    username: 'alice',
    password: 'correct horse',
    clientAddress: KIT_ADDRESS,
  });
  if (!registered.ok) throw new Error('registration failed');
  const session = await kit.authenticate.authenticate(registered.value.session.token);
  if (!session.ok) throw new Error('invalid session');
  const scoped = await kit.attach.execute({ session: session.value, l1Server: l1('https://l1.example') });
  await kit.logout.execute({ token: session.value.token, everywhere: false });
  return scoped.ok ? scoped.value : null;
}

describe('delivering revocation notices', () => {
  it('sends the notice API.md describes and removes it once delivered', async () => {
    const kit = useCaseKit();
    const scoped = await queueOneNotice(kit);
    expect(await kit.deliver.runOnce()).to.equal(1);
    expect(kit.notifier.sent).to.deep.equal([
      {
        l1Server: 'https://l1.example',
        sid: scoped!.claims.sid,
        body: {
          token_hash: scoped!.tokenHash,
          username: 'alice',
          l2_server: 'https://l2.example',
          expires_at: scoped!.expiresAt.toISOString(),
        },
      },
    ]);
    expect(await kit.store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
  });

  it('retries a failed notice after about 2 s, then 4 s', async () => {
    const kit = useCaseKit();
    await queueOneNotice(kit);
    kit.notifier.outcomes = [
      { kind: 'failed', reason: 'answered 500' },
      { kind: 'failed', reason: 'answered 500' },
    ];
    await kit.deliver.runOnce();
    kit.clock.advance(1_999);
    expect(await kit.deliver.runOnce()).to.equal(0);
    kit.clock.advance(1);
    expect(await kit.deliver.runOnce()).to.equal(1);
    kit.clock.advance(3_999);
    expect(await kit.deliver.runOnce()).to.equal(0);
    kit.clock.advance(1);
    expect(await kit.deliver.runOnce()).to.equal(1);
    expect(kit.notifier.sent).to.have.length(3);
    expect(await kit.store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
  });

  it('gives up after 24 hours of failures and keeps the job for inspection', async () => {
    const kit = useCaseKit();
    await queueOneNotice(kit);
    let attempts = 0;
    kit.notifier.notify = async () => {
      attempts++;
      return { kind: 'failed', reason: 'connection refused' };
    };
    for (let i = 0; i < 400 && (await kit.store.queueAdministration.stats()).pending > 0; i++) {
      kit.clock.advance(10 * 60_000);
      await kit.deliver.runOnce();
    }
    expect(await kit.store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 1 });
    // 2 s doubling to the 10-minute cap: about 150 attempts in a day, never one more after it.
    expect(attempts).to.be.within(140, 160);
  });

  it('does not retry a notice to a forbidden destination', async () => {
    const kit = useCaseKit();
    await queueOneNotice(kit);
    kit.notifier.outcomes = [{ kind: 'refused', reason: '10.0.0.1 is a private address' }];
    await kit.deliver.runOnce();
    kit.clock.advance(3600_000);
    expect(await kit.deliver.runOnce()).to.equal(0);
    expect(await kit.store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 1 });
  });
});
