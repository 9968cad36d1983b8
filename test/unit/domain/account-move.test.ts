import { expect } from 'chai';
import {
  NO_MOVE,
  MOVE_COOLDOWN_MS,
  cancelledMove,
  checkMoveTarget,
  cooldownLeftSeconds,
  isMoved,
  mayMove,
  moveTo,
  type AccountMove,
} from '../../../src/domain/account-move.js';

const alice = 'https://l2.example/users/alice';
const carol = 'https://peer.example/users/carol';
const day = 86_400_000;
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('account moves: the 30-day cool-down and when a move may be made (API.md §4.3 "Moving out")', () => {
  it('lets an account that never moved move at once, as its first Move (n = 1)', () => {
    expect(isMoved(NO_MOVE)).to.equal(false);
    expect(cooldownLeftSeconds(NO_MOVE, t0)).to.equal(0);
    expect(moveTo(NO_MOVE, carol, t0)).to.deep.equal({
      ok: true,
      value: { movedTo: carol, movedAt: t0, lastMovedAt: t0, moves: 1 },
    });
  });

  it('refuses a second move within 30 days with the seconds left, rounded up, and allows it at 30 days', () => {
    const moved = moveTo(NO_MOVE, carol, t0);
    if (!moved.ok) throw new Error('first move refused');
    expect(MOVE_COOLDOWN_MS).to.equal(30 * day);
    expect(moveTo(moved.value, carol, at(day))).to.deep.equal({
      ok: false,
      error: { retryAfterSeconds: (29 * day) / 1000 },
    });
    expect(cooldownLeftSeconds(moved.value, at(30 * day - 1))).to.equal(1);
    expect(mayMove(moved.value, at(30 * day - 1))).to.equal(false);
    expect(mayMove(moved.value, at(30 * day))).to.equal(true);
    const again = moveTo(moved.value, 'https://other.example/users/c', at(30 * day));
    expect(again.ok && again.value.moves).to.equal(2);
  });

  it('cancels a move without resetting the cool-down, and cancelling while not moved changes nothing', () => {
    const moved: AccountMove = { movedTo: carol, movedAt: t0, lastMovedAt: t0, moves: 1 };
    const cancelled = cancelledMove(moved);
    expect(cancelled).to.deep.equal({ movedTo: null, movedAt: null, lastMovedAt: t0, moves: 1 });
    expect(isMoved(cancelled!)).to.equal(false);
    expect(cooldownLeftSeconds(cancelled!, at(day))).to.equal((29 * day) / 1000);
    expect(cancelledMove(NO_MOVE)).to.equal(null);
    expect(cancelledMove(cancelled!)).to.equal(null);
  });

  it('moves only to a target whose alsoKnownAs lists this actor, that is not this actor and has not moved', () => {
    const target = { id: carol, alsoKnownAs: [alice], movedTo: null };
    expect(checkMoveTarget(alice, target)).to.deep.equal({ ok: true, value: carol });
    expect(checkMoveTarget(alice, { ...target, alsoKnownAs: [] })).to.deep.equal({
      ok: false,
      error: 'alias_missing',
    });
    expect(checkMoveTarget(alice, { ...target, alsoKnownAs: [`${alice}/`] }).ok).to.equal(false);
    expect(checkMoveTarget(alice, { ...target, movedTo: 'https://x.example/users/c' })).to.deep.equal({
      ok: false,
      error: 'target_moved',
    });
    expect(checkMoveTarget(alice, { id: alice, alsoKnownAs: [alice], movedTo: null })).to.deep.equal({
      ok: false,
      error: 'self',
    });
  });
});
