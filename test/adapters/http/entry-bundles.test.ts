// Issue 33, item 2: entry bundles of a fat log (256 entries of ~35 KB: 9 MiB a bundle) are built once and kept —
// plain, gzip and every partial width answered again without reading the store — the store is read a few entries at
// a time so that /healthz is answered while a cold fat bundle is built, and building is bounded per address (429)
// and in all (503), with Retry-After. On SQLite, whose reads hold the event loop while they run.
import { expect } from 'chai';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { TransparencyLogStore } from '../../../src/application/ports/transparency-log-store.js';
import { decodeEntryBundle } from '@l2/tlog';
import { appendActivities } from '../../contract/transparency-log.contract.js';
import { appendFatActivities } from '../../support/fat-log.js';
import { startTestServer, TEST_PUBLIC_URL, type TestServer } from '../../support/test-server.js';

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A GET whose body is kept as sent (fetch would decompress it); `onHeaders` runs as soon as the headers are in. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
  onHeaders: () => void = () => {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers, agent: false }, (res) => {
      onHeaders();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The log's store as the service reads it, with every read of entries counted (and, when a test says, held). */
class WatchedLogStore implements TransparencyLogStore {
  /** Reads of entries so far. */
  reads = 0;
  /** Runs before each read of entries; a read waits for what it returns. */
  beforeRead: (() => Promise<void> | void) | null = null;

  constructor(private readonly inner: TransparencyLogStore) {}

  state: TransparencyLogStore['state'] = () => this.inner.state();
  pinOrigin: TransparencyLogStore['pinOrigin'] = (origin) => this.inner.pinOrigin(origin);
  hashes: TransparencyLogStore['hashes'] = (level, first, count) => this.inner.hashes(level, first, count);
  recordCheckpoint: TransparencyLogStore['recordCheckpoint'] = (c) => this.inner.recordCheckpoint(c);

  async entries(first: number, count: number): Promise<Uint8Array[]> {
    this.reads++;
    await this.beforeRead?.();
    return this.inner.entries(first, count);
  }
}

/** A server on SQLite whose log reads are watched, with `grow` appended and covered by a checkpoint. */
async function watchedServer(
  grow: (server: TestServer) => Promise<void>,
  env: Record<string, string> = {},
): Promise<{ server: TestServer; watched: WatchedLogStore }> {
  let watched: WatchedLogStore | undefined;
  const server = await startTestServer({
    store: 'sqlite',
    env,
    override: {
      store: (p) => {
        watched = new WatchedLogStore(p.openedStore.persistence.transparencyLog);
        return { ...p.openedStore.persistence, transparencyLog: watched };
      },
    },
  });
  await grow(server);
  await server.parts.services.transparencyLog.cover(await server.parts.store.activities.nextIdx());
  return { server, watched: watched! };
}

const GZIP = { 'accept-encoding': 'gzip' };

describe('entry bundles of a fat log (sqlite)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let watched: WatchedLogStore;
  const bundle = (path: string, headers: Record<string, string> = {}) =>
    rawGet(`${server.url}/tlog/tile/entries/${path}`, headers);

  before(async () => {
    // Two full bundles and four entries of a third: 18 MiB of entries.
    ({ server, watched } = await watchedServer((s) =>
      appendFatActivities(s.parts.store, 516, TEST_PUBLIC_URL),
    ));
  });
  after(() => server?.close());

  it('holds entries of about 35 KB: a full bundle is over 8 MiB', async () => {
    const plain = await bundle('000');
    expect(plain.status).to.equal(200);
    const entries = decodeEntryBundle(new Uint8Array(plain.body))!;
    expect(entries).to.have.length(256);
    expect(entries[0]!.length).to.be.within(30_000, 65_535);
    expect(plain.body.length).to.be.above(8 * 2 ** 20);
  });

  it('answers /healthz while a cold fat bundle is read from the store, before that bundle answers', async () => {
    const events: string[] = [];
    let healthz: Promise<RawResponse> | undefined;
    watched.beforeRead = () => {
      events.push('read');
      healthz ??= rawGet(`${server.url}/healthz`).then((response) => {
        events.push('healthz');
        return response;
      });
    };
    try {
      const answered = await bundle('001');
      expect(answered.status).to.equal(200);
      expect(decodeEntryBundle(new Uint8Array(answered.body))).to.have.length(256);
      expect(healthz, 'the bundle was read from the store').to.not.equal(undefined);
      expect((await healthz!).status).to.equal(200);
    } finally {
      watched.beforeRead = null;
    }
    // The bundle's headers can only come once all its entries are read: /healthz came back before the last read.
    expect(events.lastIndexOf('read'), events.join(' ')).to.be.above(events.indexOf('healthz'));
  });

  it('builds a full bundle once, and answers it plain and gzip and at every width without reading the store again', async () => {
    const full = await bundle('000');
    expect(full.status).to.equal(200);
    const readsBefore = watched.reads;

    const again = await bundle('000');
    expect(again.body.equals(full.body)).to.equal(true);
    for (let round = 0; round < 2; round++) {
      const zipped = await bundle('000', GZIP);
      expect(zipped.status).to.equal(200);
      expect(zipped.headers['content-encoding']).to.equal('gzip');
      expect(gunzipSync(zipped.body).equals(full.body)).to.equal(true);
    }
    const entries = decodeEntryBundle(new Uint8Array(full.body))!;
    // Rotating widths, as a client that wants every answer built afresh would ask for them.
    for (const width of [1, 2, 17, 100, 128, 200, 254, 255, 3]) {
      const prefix = Buffer.concat(
        entries.slice(0, width).flatMap((e) => [Buffer.of(e.length >> 8, e.length & 255), e]),
      );
      const plain = await bundle(`000.p/${width}`);
      expect(plain.status, `.p/${width}`).to.equal(200);
      expect(plain.body.equals(prefix), `.p/${width} plain`).to.equal(true);
      const zipped = await bundle(`000.p/${width}`, GZIP);
      expect(zipped.headers['content-encoding']).to.equal('gzip');
      expect(gunzipSync(zipped.body).equals(prefix), `.p/${width} gzip`).to.equal(true);
    }
    expect(watched.reads, 'reads of the store after the first answer').to.equal(readsBefore);
  });

  it('reads the growing last bundle once for all its narrower widths', async () => {
    const widest = await bundle('002.p/4', GZIP);
    expect(widest.status).to.equal(200);
    const readsBefore = watched.reads;
    const entries = decodeEntryBundle(new Uint8Array(gunzipSync(widest.body)))!;
    expect(entries).to.have.length(4);
    for (const width of [1, 3, 2, 4]) {
      const plain = await bundle(`002.p/${width}`);
      const zipped = await bundle(`002.p/${width}`, GZIP);
      expect(decodeEntryBundle(new Uint8Array(plain.body))).to.deep.equal(entries.slice(0, width));
      expect(gunzipSync(zipped.body).equals(plain.body)).to.equal(true);
    }
    expect(watched.reads).to.equal(readsBefore);
  });
});

describe('entry bundle builds, bounded per address and in all (sqlite)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let watched: WatchedLogStore;

  before(async () => {
    // Six full bundles and one entry of a seventh; X-Forwarded-For names the client, so a test can be three.
    ({ server, watched } = await watchedServer((s) => appendActivities(s.parts.store, 6 * 256 + 1), {
      TRUST_PROXY: 'true',
    }));
  });
  after(() => server?.close());

  const from = (address: string, path: string) =>
    rawGet(`${server.url}/tlog/tile/entries/${path}`, { 'x-forwarded-for': address });

  it('refuses a third build at once from one address (429) and a fifth in all (503), with Retry-After; kept bundles still answer', async () => {
    const kept = await from('192.0.2.9', '005');
    expect(kept.status).to.equal(200);

    // Every build waits at its first read until the test lets them go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    let allWaiting!: () => void;
    const twoWaiting = new Promise<void>((resolve) => (allWaiting = resolve));
    let thirdWaiting!: () => void;
    const nowThree = new Promise<'built'>((resolve) => (thirdWaiting = () => resolve('built')));
    let fourWaiting!: () => void;
    const nowFour = new Promise<void>((resolve) => (fourWaiting = resolve));
    watched.beforeRead = () => {
      waiting++;
      if (waiting === 2) allWaiting();
      if (waiting === 3) thirdWaiting();
      if (waiting === 4) fourWaiting();
      return held;
    };
    try {
      const first = [from('192.0.2.1', '000'), from('192.0.2.1', '001')];
      await twoWaiting;
      const perAddress = await Promise.race([from('192.0.2.1', '002'), nowThree]);
      if (perAddress === 'built') throw new Error('a third bundle was built at once for one address');
      expect(perAddress.status).to.equal(429);
      expect(perAddress.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(JSON.parse(perAddress.body.toString()).code).to.equal('rate_limited');
      expect(Number(perAddress.headers['retry-after'])).to.be.above(0);

      const second = [from('192.0.2.2', '002'), from('192.0.2.2', '003')];
      await nowFour;
      const inAll = await from('192.0.2.3', '004');
      expect(inAll.status).to.equal(503);
      expect(JSON.parse(inAll.body.toString()).code).to.equal('unavailable');
      expect(Number(inAll.headers['retry-after'])).to.be.above(0);

      // What is kept needs no build: answered while every slot is taken.
      expect((await from('192.0.2.3', '005')).status).to.equal(200);
      expect((await from('192.0.2.3', '005.p/7')).status).to.equal(200);

      release();
      for (const answer of await Promise.all([...first, ...second])) expect(answer.status).to.equal(200);
    } finally {
      release();
      watched.beforeRead = null;
    }
    // Once the builds are over, the refused reads are answered.
    expect((await from('192.0.2.1', '002')).status).to.equal(200);
    expect((await from('192.0.2.3', '004')).status).to.equal(200);

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).to.match(/^l2_tlog_bundle_refused_total\{reason="rate_limited"\} 1$/m);
    expect(metrics).to.match(/^l2_tlog_bundle_refused_total\{reason="unavailable"\} 1$/m);
  });
});
