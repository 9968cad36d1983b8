import { expect } from 'chai';
import { REPLAY_MEMORY_MS, ReplayGuard } from '../../../src/adapters/signatures/replay-guard.js';
import { FixedClock } from '../../support/fixed-clock.js';

const MINUTE = 60_000;
const signature = (n: number) => Buffer.from(`signature-${n}`);

describe('ReplayGuard', () => {
  let clock: FixedClock;
  beforeEach(() => {
    clock = new FixedClock(new Date('2026-11-24T10:00:00.000Z'));
  });

  it('refuses a signature seen within its memory, and takes it again once the memory is over', () => {
    const guard = new ReplayGuard(clock);

    expect(guard.firstUse(signature(1))).to.equal(true);
    clock.advance(REPLAY_MEMORY_MS - 1);
    expect(guard.firstUse(signature(1))).to.equal(false);
    expect(guard.firstUse(signature(2)), 'another signature').to.equal(true);
    clock.advance(2);
    expect(guard.firstUse(signature(1))).to.equal(true);
  });

  it('forgets no signature before its time while there is room, and forgets the oldest first past its bound', () => {
    const guard = new ReplayGuard(clock, 3);
    guard.firstUse(signature(1));
    clock.advance(6 * MINUTE);
    guard.firstUse(signature(2));
    guard.firstUse(signature(3));

    // Signature 1 is over: it makes room, and 2 and 3 are still refused.
    clock.advance(6 * MINUTE);
    expect(guard.firstUse(signature(4))).to.equal(true);
    expect([2, 3, 4].map((n) => guard.firstUse(signature(n)))).to.deep.equal([false, false, false]);

    // Full of signatures still valid: the oldest (2, though just looked up again) goes for a new one.
    expect(guard.firstUse(signature(5))).to.equal(true);
    expect(guard.firstUse(signature(2))).to.equal(true);
  });
});
