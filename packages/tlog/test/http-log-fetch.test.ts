// The monitor's fetch of log resources (issue 33): a busy log (429 / 503 with Retry-After) is asked again after the
// wait it names, and entry bundles are fetched two at a time — what L2 builds at once for one address.
import { expect } from 'chai';
import { httpLogFetch, LogFetchError } from '../src/adapters/client/http-log-fetch.js';

const PREFIX = 'https://l2.example/tlog/';

/** A fetch answering from a script of responses, in order, recording each URL asked. */
function scripted(...answers: (() => Response)[]) {
  const asked: string[] = [];
  const fetch = async (url: string) => {
    asked.push(url);
    const next = answers.shift();
    if (!next) throw new Error(`nothing scripted for ${url}`);
    return next();
  };
  return { fetch, asked };
}

const busy = (status: number, retryAfter?: string) => () =>
  new Response('{}', { status, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });
const found = (bytes: number[]) => () => new Response(new Uint8Array(bytes), { status: 200 });

describe('httpLogFetch', () => {
  it('asks a busy log again after the Retry-After it names, at most 30 s of it', async () => {
    const waits: number[] = [];
    const { fetch, asked } = scripted(busy(429, '1'), busy(503, '3600'), busy(503, 'soon'), found([1, 2]));
    const read = httpLogFetch(PREFIX, { fetch, wait: async (ms) => void waits.push(ms) });
    expect(await read('tile/entries/000')).to.deep.equal(new Uint8Array([1, 2]));
    expect(waits).to.deep.equal([1000, 30_000, 1000]);
    expect(asked).to.have.length(4);
  });

  it('gives up after five more tries, and at once on a refusal that names no wait', async () => {
    const tries = Array.from({ length: 6 }, () => busy(429, '1'));
    const read = httpLogFetch(PREFIX, { fetch: scripted(...tries).fetch, wait: async () => {} });
    const error = await read('tile/entries/000').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(LogFetchError);
    expect((error as Error).message).to.match(/answered 429$/);

    const { fetch, asked } = scripted(busy(503), busy(500, '1'));
    const readOnce = httpLogFetch(PREFIX, { fetch, wait: async () => {} });
    expect(await readOnce('checkpoint').catch((e: unknown) => e)).to.be.instanceOf(LogFetchError);
    expect(await readOnce('checkpoint').catch((e: unknown) => e)).to.be.instanceOf(LogFetchError);
    expect(asked).to.have.length(2);
  });

  it('fetches two entry bundles at a time, and tiles beside them', async () => {
    const pending: { url: string; answer: () => void }[] = [];
    const fetch = (url: string) =>
      new Promise<Response>((resolve) => pending.push({ url, answer: () => resolve(found([0])()) }));
    const read = httpLogFetch(PREFIX, { fetch });
    const bundles = ['000', '001', '002', '003'].map((n) => read(`tile/entries/${n}`));
    const tile = read('tile/0/000');
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending.map((p) => p.url.slice(PREFIX.length))).to.deep.equal([
      'tile/entries/000',
      'tile/entries/001',
      'tile/0/000',
    ]);
    pending[0]!.answer();
    pending[2]!.answer();
    await bundles[0];
    await tile;
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending.map((p) => p.url.slice(PREFIX.length))).to.include('tile/entries/002');
    expect(pending.map((p) => p.url.slice(PREFIX.length))).to.not.include('tile/entries/003');
    for (const p of pending) p.answer();
    await bundles[1];
    await bundles[2];
    await new Promise((resolve) => setImmediate(resolve));
    pending.at(-1)!.answer();
    expect(await bundles[3]).to.deep.equal(new Uint8Array([0]));
  });
});
