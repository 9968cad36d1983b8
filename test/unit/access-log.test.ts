import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { logRequest, SLOW_REQUEST_MS } from '../../src/adapters/http/access-log.js';

/** A pino logger at `level` writing into an array of parsed lines. */
function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

const line = {
  reqId: 'r-1',
  method: 'POST',
  route: '/auth/verify',
  path: '/auth/verify',
  status: 200,
  ms: 2.34,
};

describe('the per-request log line', () => {
  it('is written at info for a server error and a slow answer, not for a quick good one', () => {
    const { logger, lines } = capture('info');
    logRequest(logger, line);
    logRequest(logger, { ...line, reqId: 'r-2', status: 503 });
    logRequest(logger, { ...line, reqId: 'r-3', ms: SLOW_REQUEST_MS + 500 });
    logRequest(logger, { ...line, reqId: 'r-4', status: 404 });

    expect(lines.map((l) => [l.reqId, l.level, l.msg])).to.deep.equal([
      ['r-2', 30, 'request'],
      ['r-3', 30, 'request'],
    ]);
    expect(lines[0]).to.include({
      method: 'POST',
      route: '/auth/verify',
      path: '/auth/verify',
      status: 503,
      ms: 2.3,
    });
  });

  it('is written for every answer at debug', () => {
    const { logger, lines } = capture('debug');
    logRequest(logger, line);
    logRequest(logger, { ...line, status: 404 });
    expect(lines.map((l) => [l.level, l.status])).to.deep.equal([
      [20, 200],
      [20, 404],
    ]);
  });
});
