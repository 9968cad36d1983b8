// The login budgets on every counter store the service can run on: per username, per address (an IPv4 address or
// an IPv6 /64), and for IPv6 per /56 (one home) and per /48 (one site), on the counters each store driver gives.
// MongoDB's are exercised only where MONGODB_URL is set (test/adapters/persistence/mongodb.test.ts).
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { memoryRateLimitCounters } from '../../../src/adapters/persistence/memory/memory-driver.js';
import { sqliteRateLimitCounters } from '../../../src/adapters/persistence/sqlite/sqlite-rate-limit-counters.js';
import { widerIpv6Networks } from '../../../src/adapters/throttle/rate-limiter-login-throttle.js';
import {
  rateLimits,
  type CounterStore,
  type LoginLimits,
} from '../../../src/adapters/throttle/rate-limits.js';
import type { LoginThrottle } from '../../../src/application/ports/login-throttle.js';

const ACTIONS = {
  registrationsPerAddress: 10,
  registrationWindowSeconds: 3600,
  assetWritesPerUser: 60,
  passkeyChallengesPerAddress: 60,
  appCodeFailuresPerUser: 20,
  assetWriteWindowSeconds: 60,
};

const stores: [string, () => CounterStore][] = [
  ['memory', () => memoryRateLimitCounters()],
  ['sqlite', () => sqliteRateLimitCounters(new Database(':memory:'))],
];

describe('the /56 and /48 around an IPv6 client', () => {
  it('are the home and site networks of a /64 key, and nothing for IPv4 or an unreadable key', () => {
    expect(widerIpv6Networks('2001:db8:1:2::/64')).to.deep.equal({
      slash56: '2001:db8:1::/56',
      slash48: '2001:db8:1::/48',
    });
    expect(widerIpv6Networks('2001:db8:1:ff00::/64')).to.deep.equal({
      slash56: '2001:db8:1:ff00::/56',
      slash48: '2001:db8:1::/48',
    });
    // A registration-style /48 key counts only as wide as it is.
    expect(widerIpv6Networks('2001:db8:1::/48')).to.deep.equal({ slash56: null, slash48: '2001:db8:1::/48' });
    for (const key of ['192.0.2.1', '192.0.2.0/24', 'unreadable', 'a'])
      expect(widerIpv6Networks(key), key).to.deep.equal({ slash56: null, slash48: null });
  });
});

const FOLLOWS = { followsPerActor: 100, followsPerOrigin: 2000, followWindowSeconds: 3600 };
const PEOPLE = { followerActionsPerUser: 300, lookupsPerUser: 60 };
const INTROSPECTION = { maxFailuresPerAddress: 1000, windowSeconds: 900 };

for (const [name, open] of stores) {
  describe(`login throttle on the ${name} counter store`, () => {
    let throttle: LoginThrottle;
    const limits = { maxFailuresPerUsername: 1000, maxFailuresPerAddress: 2, windowSeconds: 900 };

    /** The service builds its limiters at start-up; the SQLite one creates its table a turn of the loop later. */
    const throttleOn = async (store: CounterStore, login: LoginLimits) => {
      const built = rateLimits(store, login, ACTIONS, FOLLOWS, INTROSPECTION, PEOPLE).loginThrottle;
      await new Promise((resolve) => setImmediate(resolve));
      return built;
    };

    const limitedFrom = async (clientAddress: string, username = 'ghost') =>
      (await throttle.attempt(username, clientAddress)).limited;

    it('counts every /64 of one /56 against the home, and every /56 of one /48 against the site', async () => {
      throttle = await throttleOn(open(), { ...limits, maxFailuresPer56: 3, maxFailuresPer48: 5 });
      expect(await limitedFrom('2001:db8:5:1::/64')).to.equal(false);
      expect(await limitedFrom('2001:db8:5:2::/64')).to.equal(false);
      expect(await limitedFrom('2001:db8:5:3::/64')).to.equal(false);
      // A fresh /64, but the home's third attempt was its last.
      const home = await throttle.attempt('ghost', '2001:db8:5:4::/64');
      expect(home.limited && home.retryAfterSeconds).to.be.within(1, 900);
      // Another home of the same site: the site has counted 4 of its 5.
      expect(await limitedFrom('2001:db8:5:100::/64')).to.equal(false);
      expect(await limitedFrom('2001:db8:5:200::/64')).to.equal(true);
      // Another site, and IPv4, keep their own budgets.
      expect(await limitedFrom('2001:db8:6::/64')).to.equal(false);
      expect(await limitedFrom('192.0.2.1')).to.equal(false);
    });

    it('gives a right password its attempt back on the /64, the /56 and the /48 alike', async () => {
      throttle = await throttleOn(open(), { ...limits, maxFailuresPer56: 2, maxFailuresPer48: 2 });
      expect(await limitedFrom('2001:db8:9:1::/64', 'alice')).to.equal(false);
      await throttle.succeeded('alice', '2001:db8:9:1::/64');
      expect(await limitedFrom('2001:db8:9:2::/64')).to.equal(false);
      expect(await limitedFrom('2001:db8:9:3::/64')).to.equal(false);
      expect(await limitedFrom('2001:db8:9:4::/64')).to.equal(true);
    });

    it('gives an attempt refused unchecked back to the username only: the address keeps paying', async () => {
      throttle = await throttleOn(open(), {
        ...limits,
        maxFailuresPerUsername: 1,
        maxFailuresPer56: 100,
        maxFailuresPer48: 100,
      });
      expect(await limitedFrom('192.0.2.7', 'alice')).to.equal(false);
      await throttle.notChecked('alice');
      expect(await limitedFrom('192.0.2.7', 'alice')).to.equal(false);
      // The username has its one attempt again only because none was checked; the address has spent both of its.
      expect(await limitedFrom('192.0.2.7', 'bob')).to.equal(true);
    });
  });
}
