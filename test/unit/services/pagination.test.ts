// paginate asks its questions at once: a store that fails must fail the page once and leave no question unawaited
// (an unawaited rejection would end the process), and the cursors must say the same as when it asked in turn.
import { expect } from 'chai';
import { paginate, type Seeks } from '../../../src/application/pagination.js';
import type { Positioned } from '../../../src/application/ports/positioned.js';

/** Positions 1, 2, 4, 5, 7 (gaps: deleted entries), newest first as a store lists them. */
const POSITIONS = [1, 2, 4, 5, 7];
const seeksOver = (positions: number[]): Seeks<string> => {
  const at = (p: number): Positioned<string> => ({ position: p, value: `e${p}` });
  return {
    older: async (before, limit) =>
      positions
        .filter((p) => before === null || p < before)
        .sort((a, b) => b - a)
        .slice(0, limit)
        .map(at),
    newer: async (after, limit) =>
      positions
        .filter((p) => p > after)
        .sort((a, b) => a - b)
        .slice(0, limit)
        .map(at),
    count: async () => positions.length,
  };
};

describe('paginate', () => {
  it('gives the same pages and cursors across gaps, walking older and newer', async () => {
    const seeks = seeksOver(POSITIONS);
    const first = await paginate({ limit: 2 }, seeks);
    expect(first).to.deep.include({ items: ['e7', 'e5'], nextCursor: 5, prevCursor: null, total: 5 });
    const second = await paginate({ limit: 2, before: 5 }, seeks);
    expect(second).to.deep.include({ items: ['e4', 'e2'], nextCursor: 2, prevCursor: 4 });
    const last = await paginate({ limit: 2, before: 2 }, seeks);
    expect(last).to.deep.include({ items: ['e1'], nextCursor: null, prevCursor: 1 });
    const back = await paginate({ limit: 2, after: 2 }, seeks);
    expect(back).to.deep.include({ items: ['e5', 'e4'], nextCursor: 4, prevCursor: 5 });
    const oldest = await paginate({ limit: 2, after: -1 }, seeks);
    expect(oldest).to.deep.include({ items: ['e2', 'e1'], nextCursor: null, prevCursor: 2 });
    expect(await paginate({ limit: 2, before: 1 }, seeks)).to.deep.include({
      items: [],
      nextCursor: null,
      prevCursor: null,
    });
  });

  it('fails once when the store fails, leaving no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const failing: Seeks<string> = {
        older: () => Promise.reject(new Error('store down')),
        newer: () => Promise.reject(new Error('store down')),
        count: () => new Promise((_, reject) => setImmediate(() => reject(new Error('store down')))),
      };
      const outcome = await paginate({ limit: 2, before: 5 }, failing).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(outcome).to.equal('store down');
      // Let the late count's rejection settle, and any unhandled-rejection event fire.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
