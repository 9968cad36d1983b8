import { expect } from 'chai';
import { DEFAULT_RETRY_POLICY, nextAttemptAt } from '../../../src/domain/delivery-policy.js';

const T0 = new Date('2026-11-22T00:00:00.000Z');
const delayAfter = (failedAttempts: number, random = 0.5, now = T0) =>
  nextAttemptAt({ policy: DEFAULT_RETRY_POLICY, failedAttempts, firstQueuedAt: T0, now, random })!.getTime() -
  now.getTime();

describe('notice retry schedule', () => {
  it('retries first after about 2 seconds, then doubles', () => {
    expect(delayAfter(1)).to.equal(2_000);
    expect(delayAfter(2)).to.equal(4_000);
    expect(delayAfter(3)).to.equal(8_000);
  });

  it('spreads retries by up to 20 % either way', () => {
    expect(delayAfter(1, 0)).to.equal(1_600);
    expect(delayAfter(1, 0.999999)).to.be.closeTo(2_400, 1);
  });

  it('never waits more than 10 minutes between attempts', () => {
    expect(delayAfter(30, 0.999999)).to.equal(600_000);
  });

  it('gives up once the next attempt would be more than 24 hours after queueing', () => {
    const nearlyADayLater = new Date(T0.getTime() + 24 * 3600_000 - 60_000);
    expect(
      nextAttemptAt({
        policy: DEFAULT_RETRY_POLICY,
        failedAttempts: 50,
        firstQueuedAt: T0,
        now: nearlyADayLater,
        random: 0.5,
      }),
    ).to.equal(null);
  });
});
