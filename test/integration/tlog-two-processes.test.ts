// Two L2 processes on one store (a SQLite file, a PostgreSQL database), writing at once: every checkpoint either of them serves is over a prefix of
// the one tree the store holds (so all are consistent with each other), the same size is the same bytes from
// both, and a write answered by one is covered by the checkpoint the other serves.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeSha256 as crypto, verifyEd25519 } from '@l2/tlog/node-crypto';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { Persistence } from '../../src/application/ports/persistence.js';
import {
  openCheckpoint,
  parseVerifierKey,
  proveConsistency,
  rangeHashReader,
  treeHash,
  verifyConsistency,
} from '@l2/tlog';
import { client, registerUser } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { freshDatabase, postgresAvailable } from '../support/postgres-cluster.js';
import { TEST_SECRET } from '../support/test-server.js';
import { testVerifierKey, writeTestTlogKey } from '../support/tlog-test-key.js';
import { assetBody } from '../adapters/http/registry/support.js';

const WRITES = 80;
const WRITERS = 8;

/** The store both processes share: its STORE, a reader of it for the test, and how it goes away. */
interface SharedStore {
  readonly url: string;
  open(): Persistence;
  drop(): Promise<void>;
}

const STORES: { name: string; available(): boolean; make(dir: string): Promise<SharedStore> }[] = [
  {
    name: 'one SQLite file',
    available: () => true,
    make: async (dir) => ({
      url: `sqlite:${join(dir, 'l2.sqlite')}`,
      open: () => openSqlitePersistence(join(dir, 'l2.sqlite')),
      drop: async () => undefined,
    }),
  },
  {
    name: 'one PostgreSQL database',
    available: () => postgresAvailable(),
    make: async () => {
      const scratch = await freshDatabase();
      return {
        url: scratch.url,
        open: () => openPostgresPersistence(scratch.url),
        drop: () => scratch.drop(),
      };
    },
  },
];

for (const kind of STORES)
  describe(`two L2 processes on ${kind.name}: the transparency log`, function () {
    let dir: string;
    let a: L2Process;
    let b: L2Process;
    let shared: SharedStore;

    before(async function () {
      if (!kind.available()) this.skip();
      dir = mkdtempSync(join(tmpdir(), 'l2-tlog-two-'));
      writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
      writeTestTlogKey(dir);
      shared = await kind.make(dir);
      const env = {
        STORE: shared.url,
        SECRETS_DIR: dir,
        BCRYPT_COST: '4',
        PUBLIC_URL: 'http://l2.test',
      };
      [a, b] = await Promise.all([startL2Process(env), startL2Process(env)]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await shared?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('serves only checkpoints of one tree, byte-identical at one size, each covering the writes answered before it', async () => {
      const token = await registerUser(a.url, 'alice');
      const seen: string[] = [];
      const notCovered: string[] = [];
      let done = false;

      const poll = async (url: string) => {
        while (!done) seen.push((await client(url).get('/tlog/checkpoint')).text);
      };
      let next = 0;
      const write = async (writer: number) => {
        for (let i = next++; i < WRITES; i = next++) {
          const [own, other] = (i + writer) % 2 === 0 ? [a, b] : [b, a];
          const response = await client(own.url).post('/assets', assetBody(`asset-${i}`), { token });
          expect(response.status, response.text).to.equal(201);
          const idx = response.json.activity.idx as number;
          // Answered by one process: the other, reading the store, already serves a checkpoint that covers it.
          const there = (await client(other.url).get('/tlog/checkpoint')).text;
          seen.push(there);
          if (Number(there.split('\n')[1]) <= idx) notCovered.push(`${idx} not in ${there.split('\n')[1]}`);
        }
      };
      const pollers = [poll(a.url), poll(b.url)];
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => write(w)));
      done = true;
      await Promise.all(pollers);

      expect(notCovered).to.deep.equal([]);
      const parsedKey = parseVerifierKey(crypto, testVerifierKey());
      if (!parsedKey.ok) throw new Error('no key');
      const bySize = new Map<number, Set<string>>();
      const store = shared.open();
      try {
        const reader = rangeHashReader((level, first, count) =>
          store.transparencyLog.hashes(level, first, count),
        );
        for (const note of new Set(seen)) {
          const opened = openCheckpoint(note, parsedKey.value, verifyEd25519);
          if (!opened.ok) throw new Error(`a checkpoint that does not open: ${note}`);
          const { size, rootHash } = opened.value.checkpoint;
          expect(rootHash, `the root at ${size}`).to.deep.equal(await treeHash(crypto, reader, size));
          bySize.set(size, (bySize.get(size) ?? new Set()).add(note));
        }
        const sizes = [...bySize.keys()].sort((x, y) => x - y);
        expect(sizes.at(-1)).to.equal(WRITES);
        expect(sizes.length, 'checkpoints of several sizes were seen').to.be.greaterThan(3);
        for (const [size, notes] of bySize) expect(notes.size, `notes of size ${size}`).to.equal(1);
        // And pairwise: each one a prefix of the next, by a consistency proof from the stored hashes.
        const roots = await Promise.all(sizes.map((size) => treeHash(crypto, reader, size)));
        for (let i = 1; i < sizes.length; i++) {
          if (sizes[i - 1] === 0) continue;
          const proof = await proveConsistency(crypto, reader, sizes[i - 1]!, sizes[i]!);
          expect(
            verifyConsistency(crypto, sizes[i - 1]!, sizes[i]!, proof, roots[i - 1]!, roots[i]!),
          ).to.equal(true);
        }
      } finally {
        await store.close();
      }
      for (const l2 of [a, b]) expect((await client(l2.url).get('/readyz')).status).to.equal(200);
    });
  });
