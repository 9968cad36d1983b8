import { expect } from 'chai';
import { createL1Kit, type L1Kit, type LogoutNotice, type TokenError } from '../src/index.js';
import { routes } from '../src/adapters/node.js';
import { sha256, StandInL2, TestClock } from './support/stand-in-l2.js';
import { gate, rejection, TestServer } from './support/servers.js';

describe('l1-kit cache: a short positive cache that keeps "a revoked token fails at once"', () => {
  let clock: TestClock;
  let l2: StandInL2;
  let l1: TestServer;
  let notices: LogoutNotice[];

  /** A kit for the L1 server, with its notice receiver mounted on it unless `receiver` is false. */
  function mount(options: { ttl: number; receiver?: boolean }): L1Kit {
    const kit = createL1Kit({
      l2: l2.url,
      self: l1.url,
      now: clock.now,
      cache: { positiveTtlSeconds: options.ttl },
    });
    if (options.receiver !== false) {
      const handle = routes(kit, { onLogout: (notice) => void notices.push(notice) });
      l1.handler = (req, res) => {
        void handle(req, res).then((handled) => handled || res.writeHead(404).end());
      };
    }
    return kit;
  }

  beforeEach(async () => {
    clock = new TestClock();
    l2 = await new StandInL2({ now: clock.now }).start();
    l1 = await new TestServer().start();
    notices = [];
  });
  afterEach(async () => {
    await l1.stop();
    await l2.stop();
  });

  it('caches nothing while no notice receiver is mounted, whatever the TTL', async () => {
    const kit = mount({ ttl: 60, receiver: false });
    const token = await l2.issue('alice', { l1: l1.url });
    for (let i = 0; i < 3; i++) expect((await kit.verify(token)).username).to.equal('alice');
    expect(kit.positiveCacheActive).to.be.false;
    expect(l2.counts.verify).to.equal(3);
  });

  it('with the receiver: answers from the cache, and the revoked token fails as soon as the notice lands', async () => {
    const kit = mount({ ttl: 60 });
    const token = await l2.issue('alice', { l1: l1.url });
    expect(kit.positiveCacheActive).to.be.true;
    for (let i = 0; i < 5; i++) expect((await kit.verify(token)).username).to.equal('alice');
    expect(l2.counts.verify).to.equal(1);

    const delivery = await l2.revokeAndNotify(token);

    expect(delivery.status).to.equal(204);
    expect(notices.map((n) => n.tokenHash)).to.deep.equal([sha256(token)]);
    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_revoked');
    expect(l2.counts.verify).to.equal(2);
  });

  it('with the receiver but the notice lost: the revoked token fails once the TTL is over, not later', async () => {
    const kit = mount({ ttl: 30 });
    const token = await l2.issue('alice', { l1: l1.url });
    await kit.verify(token);
    l2.revoke(token); // the notice never arrives

    clock.ms += 29_999;
    expect((await kit.verify(token)).username).to.equal('alice'); // the documented bound: at most the TTL
    clock.ms += 1;
    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_revoked');
    expect(l2.counts.verify).to.equal(2);
  });

  it('never keeps a valid answer past the token expiry', async () => {
    const kit = mount({ ttl: 60 });
    const token = await l2.issue('alice', { l1: l1.url, lifetimeSeconds: 10 });
    await kit.verify(token);
    clock.ms += 9_999;
    expect((await kit.verify(token)).username).to.equal('alice');
    expect(l2.counts.verify).to.equal(1);
    clock.ms += 1;
    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_expired');
    expect(l2.counts.verify).to.equal(2);
  });

  it('never caches a plain (unscoped) token: L2 sends no notice for it', async () => {
    const kit = mount({ ttl: 60 });
    const token = await l2.issue('alice');
    await kit.verify(token);
    await kit.verify(token);
    expect(l2.counts.verify).to.equal(2);
  });

  it('an unsigned notice purges the entry (harmless: L2 still says valid) and never reaches the hook', async () => {
    const kit = mount({ ttl: 60 });
    const token = await l2.issue('alice', { l1: l1.url });
    await kit.verify(token);

    const delivery = await l2.deliver(l1.url, await l2.notice(token, { withoutLogoutToken: true }));

    expect(delivery.status).to.equal(400);
    expect(notices).to.deep.equal([]);
    expect((await kit.verify(token)).username).to.equal('alice');
    expect(l2.counts.verify).to.equal(2);
  });

  it('does not cache a valid answer that was in flight when the notice landed', async () => {
    const kit = mount({ ttl: 60 });
    const token = await l2.issue('alice', { l1: l1.url });
    const held = gate();
    l2.verifyGate = held.promise;
    const inFlight = kit.verify(token);
    while (l2.heldAnswers === 0) await new Promise((resolve) => setImmediate(resolve));

    l2.revoke(token);
    expect((await l2.deliver(l1.url, await l2.notice(token))).status).to.equal(204);
    l2.verifyGate = undefined;
    held.open();

    expect((await inFlight).username).to.equal('alice'); // L2 said valid before the revocation
    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_revoked');
    expect(l2.counts.verify).to.equal(2);
  });

  it('stops caching, and forgets what it cached, once the receiver is closed', async () => {
    const kit = createL1Kit({ l2: l2.url, self: l1.url, now: clock.now, cache: { positiveTtlSeconds: 60 } });
    const receiver = kit.noticeReceiver();
    const token = await l2.issue('alice', { l1: l1.url });
    await kit.verify(token);
    await kit.verify(token);
    expect(l2.counts.verify).to.equal(1);

    receiver.close();

    expect(kit.positiveCacheActive).to.be.false;
    await kit.verify(token);
    expect(l2.counts.verify).to.equal(2);
  });
});
