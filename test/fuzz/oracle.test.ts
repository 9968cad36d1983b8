// The fuzz oracle itself: what it counts as a failure, and what it lets through.
import { expect } from 'chai';
import { verdict, type FuzzResponse, type SentRequest } from './support.js';

const request = (path = '/x', body = ''): SentRequest => ({
  method: 'POST',
  path,
  headers: [['Content-Type', 'application/json']],
  body: Buffer.from(body),
});
const answer = (status: number, text: string, type = 'application/problem+json'): FuzzResponse => ({
  status,
  headers: { 'content-type': type },
  text,
});
const problem = (status: number, detail: string) =>
  JSON.stringify({ type: 'about:blank', title: 't', status, code: 'c', detail });

describe('fuzz oracle', () => {
  it('fails any 5xx (503 too) and a request without an HTTP answer', () => {
    expect(verdict(request(), answer(500, problem(500, 'internal_error')))).to.match(/answered 500/);
    expect(verdict(request(), answer(503, problem(503, 'unavailable')))).to.match(/answered 503/);
    expect(verdict(request(), answer(0, 'request failed: socket hang up'))).to.match(/no HTTP answer/);
  });

  it('fails stack frames, file paths, exception names and runtime messages in a body', () => {
    for (const leak of [
      'TypeError: x is not a function',
      '    at Object.<anonymous> (/srv/app/dist/main.js:10:5)',
      'src/adapters/http/koa/create-app.ts:12',
      'Unexpected token } in JSON at position 3',
      'SQLITE_CONSTRAINT: UNIQUE constraint failed',
      'RangeError: Maximum call stack size exceeded',
      'Cannot read properties of undefined',
    ]) {
      expect(verdict(request(), answer(400, problem(400, leak))), leak).to.be.a('string');
    }
  });

  it('lets through what the request itself carried (an echoed path or field)', () => {
    const body = '{"name":"TypeError"}';
    expect(verdict(request('/x', body), answer(400, problem(400, 'No asset TypeError.')))).to.equal(null);
    expect(verdict(request('/assets/node_modules'), answer(404, problem(404, 'no node_modules')))).to.equal(
      null,
    );
  });

  it('fails a problem whose status or code does not match the answer', () => {
    expect(verdict(request(), answer(400, problem(404, 'x')))).to.match(/do not match/);
    expect(verdict(request(), answer(400, '{"status":400'))).to.match(/not JSON/);
    expect(verdict(request(), answer(404, problem(404, 'There is nothing at this address.')))).to.equal(null);
  });
});
