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

const request =
  (reqId = 'r-1') =>
  () => ({
    reqId,
    method: 'POST',
    route: '/auth/verify',
    target: '/auth/verify?token=never-logged',
  });

describe('the per-request log line', () => {
  it('is written at info for a server error and a slow answer, not for a quick good one', () => {
    const { logger, lines } = capture('info');
    logRequest(logger, 200, 2.34, request('r-1'));
    logRequest(logger, 503, 2.34, request('r-2'));
    logRequest(logger, 200, SLOW_REQUEST_MS + 500, request('r-3'));
    logRequest(logger, 404, 2.34, request('r-4'));

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
    expect(JSON.stringify(lines), 'no query string, no target').not.to.match(/never-logged|target/);
  });

  it('is written for every answer at debug', () => {
    const { logger, lines } = capture('debug');
    logRequest(logger, 200, 1, request());
    logRequest(logger, 404, 1, request());
    expect(lines.map((l) => [l.level, l.status])).to.deep.equal([
      [20, 200],
      [20, 404],
    ]);
  });
});
