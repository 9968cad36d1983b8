// Several instances compare token expiries and clean up with their own clocks: a start-up warning, one log line,
// when the database's clock and this process's disagree by more than a second.
import { expect } from 'chai';
import { warnOfClockSkew } from '../../src/composition/clock-skew.js';

function capture() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    warn: (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message }),
  };
}

describe('the start-up clock check', () => {
  it('warns once, with the offset, when the store clock is more than 1 s off', async () => {
    for (const offset of [1500, -4000]) {
      const log = capture();
      await warnOfClockSkew(async () => offset, log);
      expect(log.lines).to.have.length(1);
      expect(log.lines[0]!.fields).to.deep.equal({ storeClockAheadMs: offset });
      expect(log.lines[0]!.message).to.match(/clock.*NTP/);
    }
  });

  it('says nothing within 1 s, nor when the store cannot be asked or has no clock', async () => {
    const log = capture();
    await warnOfClockSkew(async () => 900, log);
    await warnOfClockSkew(async () => -900, log);
    await warnOfClockSkew(() => Promise.reject(new Error('down')), log);
    await warnOfClockSkew(undefined, log);
    expect(log.lines).to.deep.equal([]);
  });
});
