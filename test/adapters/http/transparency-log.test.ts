// API.md §8 over HTTP, on both stores: the checkpoint and key, every tile path form, the caching headers, gzip on
// entry bundles, the byte identity of /activities/{i} with its bundle entry and leaf hash, and tlog-proofs.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import {
  bytesEqual,
  decodeEntryBundle,
  leafHash,
  nodeHash,
  openCheckpoint,
  parseVerifierKey,
  treeHash,
  verifyTlogProof,
  type NoteVerifierKey,
} from '@l2/tlog';
import type { MemoryPersistence } from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { AssetName } from '../../../src/domain/asset.js';
import type { Username } from '../../../src/domain/user.js';
import { client, type HttpResponse } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { TEST_TLOG_ORIGIN, testVerifierKey } from '../../support/tlog-test-key.js';
import {
  AP_ACCEPT,
  assetBody,
  expectProblem,
  registerUsers,
  startServer,
  STORES,
  type Api,
} from './registry/support.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Enough writes for a full tile at level 0, a partial one after it, and a partial tile at level 1. */
const WRITES = 260;

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A GET whose body is kept as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
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

const key = (): NoteVerifierKey => {
  const parsed = parseVerifierKey(nodeSha256, testVerifierKey());
  if (!parsed.ok) throw new Error('the test verifier key does not parse');
  return parsed.value;
};

/** The checkpoint served now, opened with the log's key. */
async function checkpointOf(api: Api): Promise<{ size: number; root: Uint8Array; note: string }> {
  const response = await api.get('/tlog/checkpoint');
  expect(response.status, response.text).to.equal(200);
  const opened = openCheckpoint(response.text, key(), verifyEd25519);
  if (!opened.ok) throw new Error(`the checkpoint does not open: ${JSON.stringify(opened.error)}`);
  return { size: opened.value.checkpoint.size, root: opened.value.checkpoint.rootHash, note: response.text };
}

for (const store of STORES) {
  describe(`transparency log over HTTP (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let token: string;
    /** The checkpoint size seen right after each write was answered. */
    const coveredAfterWrite: { idx: number; size: number }[] = [];

    before(async () => {
      server = await startServer(store);
      api = client(server.url);
      ({ alice: token } = (await registerUsers(server.url, 'alice')) as { alice: string });
      for (let i = 0; i < WRITES; i++) {
        const response =
          i % 10 === 9
            ? await api.send('PATCH', `/assets/asset-${i - 1}`, { description: `Changed ${i}` }, { token })
            : await api.post('/assets', assetBody(`asset-${i}`), { token });
        expect(response.status, response.text).to.be.oneOf([200, 201]);
        const { idx } = response.json.activity as { idx: number };
        coveredAfterWrite.push({ idx, size: (await checkpointOf(api)).size });
      }
    });
    after(() => server?.close());

    describe('the checkpoint and the key', () => {
      it('covers every write when the write is answered: the checkpoint served then includes its activity', () => {
        expect(coveredAfterWrite).to.have.length(WRITES);
        for (const { idx, size } of coveredAfterWrite) expect(size, `after activity ${idx}`).to.be.above(idx);
      });

      it('serves the latest checkpoint as text, not to be cached without asking again, signed under /tlog/key', async () => {
        const response = await api.get('/tlog/checkpoint');
        expect(response.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
        expect(response.headers.get('cache-control')).to.equal('no-cache');
        const lines = response.text.split('\n');
        expect(lines[0]).to.equal(TEST_TLOG_ORIGIN);
        expect(lines[1]).to.equal(String(WRITES));
        expect(lines[3]).to.equal('');
        expect(lines[4]).to.match(new RegExp(`^\u2014 ${TEST_TLOG_ORIGIN} [A-Za-z0-9+/]+=*$`));
        const { size, root } = await checkpointOf(api);
        expect(size).to.equal(WRITES);
        expect(root).to.deep.equal(
          await treeHash(nodeSha256, server.parts.services.transparencyLog.reader, WRITES),
        );
      });

      it('serves the verifier key as sumdb/note reads it: <origin>+<key id>+<base64(0x01 ‖ key)>', async () => {
        const response = await api.get('/tlog/key');
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^text\/plain/);
        expect(response.text).to.equal(`${testVerifierKey()}\n`);
        const [, , material] =
          /^l2\.test\/tlog\+([0-9a-f]{8})\+([A-Za-z0-9+/]{44})\n$/.exec(response.text) ?? [];
        expect(Buffer.from(material!, 'base64')[0], 'signature type Ed25519').to.equal(0x01);
      });

      it('answers the same checkpoint bytes to every request while nothing is written', async () => {
        const [a, b] = await Promise.all([api.get('/tlog/checkpoint'), api.get('/tlog/checkpoint')]);
        expect(a.text).to.equal(b.text);
      });
    });

    describe('tiles and entry bundles', () => {
      const get = (path: string, headers: Record<string, string> = {}) =>
        rawGet(`${server.url}/tlog/${path}`, headers);

      for (const [path, bytes] of [
        ['tile/0/000', 256 * 32],
        ['tile/0/001.p/4', 4 * 32],
        ['tile/0/001.p/1', 32],
        ['tile/1/000.p/1', 32],
      ] as const) {
        it(`serves ${path}: ${bytes} bytes of hashes, immutable`, async () => {
          const response = await get(path);
          expect(response.status).to.equal(200);
          expect(response.headers['content-type']).to.equal('application/octet-stream');
          expect(response.headers['cache-control']).to.equal(IMMUTABLE);
          expect(response.body.length).to.equal(bytes);
        });
      }

      it('serves tile/1/000.p/1 as the root of the first 256 leaves, which tile/0/000 holds', async () => {
        const level0 = (await get('tile/0/000')).body;
        const level1 = (await get('tile/1/000.p/1')).body;
        let layer: Uint8Array[] = Array.from(
          { length: 256 },
          (_, i) => new Uint8Array(level0.subarray(i * 32, i * 32 + 32)),
        );
        while (layer.length > 1)
          layer = Array.from({ length: layer.length / 2 }, (_, i) =>
            nodeHash(nodeSha256, layer[2 * i]!, layer[2 * i + 1]!),
          );
        expect(new Uint8Array(level1)).to.deep.equal(layer[0]);
      });

      it('serves entry bundles as uint16 lengths and entries, gzip-encoded when the client takes gzip', async () => {
        const plain = await get('tile/entries/000');
        expect(plain.status).to.equal(200);
        expect(plain.headers['content-type']).to.equal('application/octet-stream');
        expect(plain.headers['cache-control']).to.equal(IMMUTABLE);
        expect(plain.headers['content-encoding']).to.equal(undefined);
        expect(plain.headers.vary).to.match(/accept-encoding/i);
        expect(decodeEntryBundle(new Uint8Array(plain.body))).to.have.length(256);

        const zipped = await get('tile/entries/000', { 'accept-encoding': 'gzip, deflate, br' });
        expect(zipped.headers['content-encoding']).to.equal('gzip');
        expect(zipped.headers.vary).to.match(/accept-encoding/i);
        expect(zipped.body.length).to.be.below(plain.body.length);
        expect(gunzipSync(zipped.body).equals(plain.body)).to.equal(true);

        const refused = await get('tile/entries/000', { 'accept-encoding': 'gzip;q=0, identity' });
        expect(refused.headers['content-encoding']).to.equal(undefined);
        const partial = await get('tile/entries/001.p/4', { 'accept-encoding': 'gzip' });
        expect(partial.headers['content-encoding']).to.equal('gzip');
        expect(decodeEntryBundle(new Uint8Array(gunzipSync(partial.body)))).to.have.length(4);
      });

      it('gives each level-0 hash as the leaf hash of its bundle entry', async () => {
        const entries = decodeEntryBundle(new Uint8Array((await get('tile/entries/001.p/4')).body))!;
        const hashes = (await get('tile/0/001.p/4')).body;
        entries.forEach((entry, i) =>
          expect(
            Buffer.from(leafHash(nodeSha256, entry)).equals(hashes.subarray(i * 32, i * 32 + 32)),
          ).to.equal(true),
        );
      });

      for (const [path, why] of [
        ['tile/0/001.p/5', 'beyond the checkpoint (a partial wider than the tree has)'],
        ['tile/0/002', 'beyond the checkpoint (a tile the tree does not have)'],
        ['tile/0/001', 'beyond the checkpoint (full while the tree has 4 of it)'],
        ['tile/1/000', 'beyond the checkpoint (level 1 has one hash)'],
        ['tile/2/000.p/1', 'an empty level'],
        ['tile/entries/002.p/1', 'an entry bundle beyond the checkpoint'],
        ['tile/0/x001/000', 'an x-grouped index beyond the checkpoint'],
        ['tile/0/0000', 'a leading zero'],
        ['tile/0/00', 'too few digits'],
        ['tile/0/x000/000', 'a leading x000 group'],
        ['tile/00/000', 'a leading zero in the level'],
        ['tile/64/000', 'a level above 63'],
        ['tile/0/000.p/256', 'a partial width of 256'],
        ['tile/0/001.p/0', 'a partial width of 0'],
        ['tile/0/001.p/04', 'a leading zero in the width'],
        ['tile/0/%30%30%30', 'a percent-encoded spelling'],
        ['tile/0/000/', 'a trailing slash'],
        ['tile/entries/x1/000', 'a short x group'],
        ['tile/hashes/000', 'an unknown level name'],
        ['tile/0', 'no index'],
      ] as const) {
        it(`answers 404 to ${path}: ${why}`, async () => {
          expectProblem(await api.get(`/tlog/${path}`), 404, 'not_found');
        });
      }
    });

    describe('/activities/{i}: the entry, byte for byte', () => {
      it('answers the ActivityStreams form with exactly the bundle entry, whose leaf hash the tile holds', async () => {
        const bundle = decodeEntryBundle(
          new Uint8Array((await rawGet(`${server.url}/tlog/tile/entries/000`)).body),
        )!;
        const tile = (await rawGet(`${server.url}/tlog/tile/0/000`)).body;
        for (const i of [0, 9, 255]) {
          const response = await rawGet(`${server.url}/activities/${i}`, { accept: AP_ACCEPT });
          expect(response.status).to.equal(200);
          expect(response.headers['content-type']).to.match(/^application\/activity\+json/);
          expect(response.headers.vary).to.match(/accept/i);
          expect(bytesEqual(new Uint8Array(response.body), bundle[i]!), `activity ${i}`).to.equal(true);
          expect(
            Buffer.from(leafHash(nodeSha256, new Uint8Array(response.body))).equals(
              tile.subarray(i * 32, i * 32 + 32),
            ),
          ).to.equal(true);
          expect(JSON.parse(response.body.toString('utf8')).id).to.equal(`http://l2.test/activities/${i}`);
        }
      });

      it('answers 404 to an activity that does not exist, in every form', async () => {
        expectProblem(
          await api.get(`/activities/${WRITES + 5}`, { headers: { accept: AP_ACCEPT } }),
          404,
          'not_found',
        );
        expectProblem(
          await api.get(`/activities/${WRITES + 5}`, { headers: { accept: 'application/json' } }),
          404,
          'not_found',
        );
      });
    });

    describe('/activities/{i}/proof', () => {
      it('proves any activity in the latest checkpoint (c2sp.org/tlog-proof@v1), checked with the entry and the key', async () => {
        const { note } = await checkpointOf(api);
        for (const i of [0, 1, 255, 256, WRITES - 1]) {
          const response = await api.get(`/activities/${i}/proof`);
          expect(response.status, response.text).to.equal(200);
          expect(response.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
          expect(response.text.startsWith(`c2sp.org/tlog-proof@v1\nindex ${i}\n`)).to.equal(true);
          expect(response.text.endsWith(`\n\n${note}`)).to.equal(true);
          const entry = new Uint8Array(
            (await rawGet(`${server.url}/activities/${i}`, { accept: AP_ACCEPT })).body,
          );
          const verified = verifyTlogProof(nodeSha256, verifyEd25519, response.text, entry, key());
          expect(verified.ok, JSON.stringify(verified)).to.equal(true);
          const other = new Uint8Array(
            (await rawGet(`${server.url}/activities/${(i + 1) % WRITES}`, { accept: AP_ACCEPT })).body,
          );
          expect(verifyTlogProof(nodeSha256, verifyEd25519, response.text, other, key()).ok).to.equal(false);
        }
      });

      it('answers 404 beyond the checkpoint and 400 to an idx that is no integer', async () => {
        expectProblem(await api.get(`/activities/${WRITES}/proof`), 404, 'not_found');
        expectProblem(await api.get('/activities/abc/proof'), 400, 'invalid_request');
        expectProblem(await api.get('/activities/-1/proof'), 400, 'invalid_request');
      });
    });

    it('answers /readyz 200 once the log is checked', async () => {
      const response: HttpResponse = await api.get('/readyz');
      expect(response.status).to.equal(200);
    });
  });
}

/** Valid fields whose Create is over 65,535 bytes: every character escaped in JSON and HTML, tags of emoji. */
const HUGE_FIELDS = {
  description: '"'.repeat(5000),
  alt_text: '"'.repeat(1500),
  url: `https://cdn.example/${'a'.repeat(2020)}`,
  tags: Array.from({ length: 20 }, (_, i) => `${'🎨'.repeat(48)}${String(i).padStart(2, '0')}`),
};

for (const store of STORES) {
  describe(`an activity the log cannot hold (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let token: string;
    before(async () => {
      server = await startServer(store);
      api = client(server.url);
      ({ alice: token } = (await registerUsers(server.url, 'alice')) as { alice: string });
      expect((await api.post('/assets', assetBody('small'), { token })).status).to.equal(201);
    });
    after(() => server?.close());

    it('is refused with 413 payload_too_large before anything is stored, created or updated', async () => {
      const before = (await api.get('/tlog/checkpoint')).text;
      const created = await api.post('/assets', assetBody('huge', HUGE_FIELDS), { token });
      const problem = expectProblem(created, 413, 'payload_too_large');
      expect(problem.detail).to.match(/65,535 bytes/);
      expectProblem(
        await api.get('/assets/huge', { headers: { accept: 'application/json' } }),
        404,
        'not_found',
      );

      const updated = await api.send('PATCH', '/assets/small', HUGE_FIELDS, { token });
      expectProblem(updated, 413, 'payload_too_large');
      const small = await api.get('/assets/small', { headers: { accept: 'application/json' } });
      expect(small.json.description).to.equal('The asset small');

      const activities = await api.get('/activities', { headers: { accept: 'application/json' } });
      expect(activities.json.total).to.equal(1);
      expect((await api.get('/tlog/checkpoint')).text).to.equal(before);
    });
  });
}

/** Appends `count` small activities straight into a memory store's tables and tree (no asset, no signature). */
function fillMemoryLog(store: MemoryPersistence, count: number): void {
  const { db } = store;
  const published = new Date('2026-11-01T00:00:00.000Z');
  for (let idx = db.activities.length, end = idx + count; idx < end; idx++) {
    const document = JSON.stringify({ id: `http://l2.test/activities/${idx}`, type: 'Create', n: idx });
    db.tlog.apply(db.tlog.prepare(idx, document));
    db.activities.push({
      position: idx,
      activity: {
        idx,
        type: 'Create',
        actor: 'alice' as Username,
        object: `a${idx}` as AssetName,
        published,
      },
      document,
    });
  }
}

describe('x-grouped tile indices over HTTP (a memory store of 256,001 activities)', function () {
  this.timeout(300_000);
  const SIZE = 256_001;
  let server: TestServer;
  const get = (path: string) => rawGet(`${server.url}/tlog/${path}`);

  before(async () => {
    server = await startServer('memory', { storeInternals: true });
    fillMemoryLog(server.parts.store as MemoryPersistence, SIZE);
    expect((await server.parts.services.transparencyLog.cover(SIZE)).size).to.equal(SIZE);
  });
  after(() => server?.close());

  it('serves tile 1000 of level 0 and of the entries at x001/000, and the tiles above at their widths', async () => {
    const [entries, leaves] = [await get('tile/entries/x001/000.p/1'), await get('tile/0/x001/000.p/1')];
    expect([entries.status, leaves.status]).to.deep.equal([200, 200]);
    const [entry] = decodeEntryBundle(new Uint8Array(entries.body))!;
    expect(JSON.parse(new TextDecoder().decode(entry))).to.deep.include({ n: 256_000 });
    expect(new Uint8Array(leaves.body)).to.deep.equal(leafHash(nodeSha256, entry!));
    for (const [path, bytes] of [
      ['tile/0/999', 256 * 32],
      ['tile/1/003.p/232', 232 * 32],
      ['tile/2/000.p/3', 3 * 32],
    ] as const)
      expect((await get(path)).body.length, path).to.equal(bytes);
  });

  it('proves entry 256,000 against the checkpoint', async () => {
    const proof = await client(server.url).get('/activities/256000/proof');
    const entry = new Uint8Array(
      (await rawGet(`${server.url}/activities/256000`, { accept: AP_ACCEPT })).body,
    );
    expect(verifyTlogProof(nodeSha256, verifyEd25519, proof.text, entry, key()).ok).to.equal(true);
  });

  for (const path of [
    'tile/0/x1/000.p/1',
    'tile/0/x001/00.p/1',
    'tile/0/x001/000',
    'tile/0/x000/999',
    'tile/0/1000',
  ])
    it(`answers 404 to ${path}`, async () => {
      expectProblem(await client(server.url).get(`/tlog/${path}`), 404, 'not_found');
    });
});
