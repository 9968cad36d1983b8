// A request body no route reads (a GET with a body) must not cost the client the end of a large answer: Node closes
// such a connection, and closing a socket with unread bytes resets it mid-answer.
import { expect } from 'chai';
import { request } from 'node:http';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** A GET carrying `bodyBytes` of JSON, answered in full (status and byte count) or failed (the error). */
function getWithBody(url: string, path: string, bodyBytes: number, chunked = false): Promise<string> {
  const body = Buffer.from(`{"token":"${'t'.repeat(bodyBytes - 12)}"}`);
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = request({
      hostname,
      port,
      path,
      method: 'GET',
      agent: false,
      headers: {
        'content-type': 'application/json',
        ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }),
      },
    });
    req.on('error', (error) => resolve(`failed: ${error.message}`));
    req.on('response', (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('error', (error) => resolve(`failed after ${received} bytes: ${error.message}`));
      res.on('end', () => resolve(`${res.statusCode} ${received} of ${res.headers['content-length']}`));
    });
    if (chunked) req.write(body.subarray(0, body.length / 2));
    req.end(chunked ? body.subarray(body.length / 2) : body);
  });
}

describe('a request body nobody reads', () => {
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(() => server.close());

  it('is read and dropped, so a large answer arrives whole — with a declared length or chunked', async () => {
    for (const chunked of [false, true])
      for (let i = 0; i < 5; i++) {
        const answer = await getWithBody(
          server.url,
          '/static/screenshots/home-desktop.png',
          256 * 1024,
          chunked,
        );
        expect(answer, chunked ? 'chunked' : 'length').to.match(/^200 (\d+) of \1$/);
      }
  });
});
