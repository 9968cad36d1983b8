import { expect } from 'chai';
import {
  ed25519KeyPairFromPkcs8Pem,
  generateEd25519Pkcs8Pem,
  nodeSha256 as crypto,
  verifyEd25519,
} from '@l2/tlog/node-crypto';
import {
  noteSigner,
  parseVerifierKey,
  parseVerifierState,
  signCheckpoint,
  verifyLog,
  type FetchLogResource,
  type LogVerifierState,
} from '@l2/tlog';
import { MemoryTransparencyLog } from '../../../support/memory-transparency-log.js';

const ORIGIN = 'l2.example/tlog';
const pair = ed25519KeyPairFromPkcs8Pem(generateEd25519Pkcs8Pem());
const entry = (i: number, salt = 0) => new TextEncoder().encode(`{"id":${i},"salt":${salt}}`);
const logOf = (size: number, changed?: number) => {
  const log = new MemoryTransparencyLog(ORIGIN, pair);
  for (let i = 0; i < size; i++) log.append(entry(i, i === changed ? 1 : 0));
  return log;
};
const key = (() => {
  const parsed = parseVerifierKey(crypto, logOf(0).verifierKey);
  if (!parsed.ok) throw new Error('key');
  return parsed.value;
})();

const fetchOf =
  (log: MemoryTransparencyLog): FetchLogResource =>
  (path) =>
    log.fetch(path);
/** The log's answers, with the bytes of one resource changed by `tamper`. */
const tampered =
  (
    log: MemoryTransparencyLog,
    target: string,
    tamper: (bytes: Uint8Array) => Uint8Array | null,
  ): FetchLogResource =>
  async (path) => {
    const bytes = await log.fetch(path);
    return path === target && bytes !== null ? tamper(bytes.slice()) : bytes;
  };
const flipFirstByte = (bytes: Uint8Array) => {
  bytes[5] = bytes[5]! ^ 1;
  return bytes;
};

const verify = (fetch: FetchLogResource, saved: LogVerifierState | null = null, full = false) =>
  verifyLog({ crypto, verifyEd25519, fetch, key, saved, full });

describe('transparency: the log verifier (l2 tlog verify, the kit’s watch)', function () {
  const log = logOf(70_000);
  let first: LogVerifierState;

  before(async () => {
    log.sign();
    const result = await verify(fetchOf(log));
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    first = result.value.state;
  });

  it('checks a log it has never seen from every entry up, and keeps what it saw', async () => {
    const result = await verify(fetchOf(log));
    expect(result.ok && result.value).to.deep.include({
      previousSize: null,
      checkedEntries: 70_000,
      checkedTiles: 277,
    });
    expect(first).to.deep.include({ origin: ORIGIN, size: 70_000 });
    expect(parseVerifierState(JSON.parse(JSON.stringify(first)))).to.deep.equal(first);
  });

  it('rebuilds only what grew since, and proves the new tree extends the one it saw', async () => {
    const grown = logOf(70_500);
    grown.sign();
    const result = await verify(fetchOf(grown), first);
    // From the start of the old partial bundle (69,888) to 70,500: level-0 tiles 273, 274 (now full) and 275,
    // and the grown partial level-1 tile; level 2 has not changed.
    expect(result.ok && result.value).to.deep.include({
      previousSize: 70_000,
      checkedEntries: 612,
      checkedTiles: 4,
    });
    expect(result.ok && result.value.state.size).to.equal(70_500);
    const full = await verify(fetchOf(grown), first, true);
    expect(full.ok && full.value).to.deep.include({ checkedEntries: 70_500 });
  });

  it('has nothing to rebuild when the log has not grown', async () => {
    const result = await verify(fetchOf(log), first);
    expect(result.ok && result.value).to.deep.include({
      previousSize: 70_000,
      checkedEntries: 0,
      checkedTiles: 0,
    });
  });

  it('refuses a checkpoint not signed by the log’s key', async () => {
    const impostor = new MemoryTransparencyLog(
      ORIGIN,
      ed25519KeyPairFromPkcs8Pem(generateEd25519Pkcs8Pem()),
    ).append(entry(0));
    impostor.sign();
    const result = await verify(fetchOf(impostor));
    expect(result).to.deep.include({ ok: false });
    if (!result.ok)
      expect(result.error).to.deep.equal({
        type: 'checkpoint_refused',
        reason: { type: 'no_verified_signature' },
      });
  });

  it('calls a rewritten history a fork: at the same size, and after growing', async () => {
    const rewritten = logOf(70_000, 10);
    const atSameSize = rewritten.sign();
    const same = await verify(fetchOf(rewritten), first);
    expect(same).to.deep.include({ ok: false });
    if (!same.ok) expect(same.error).to.deep.include({ type: 'fork', checkpoint: atSameSize, saved: first });
    rewritten.append(...Array.from({ length: 500 }, (_, i) => entry(70_000 + i)));
    rewritten.sign();
    const grown = await verify(fetchOf(rewritten), first);
    expect(!grown.ok && grown.error.type).to.equal('fork');
  });

  it('refuses a tree smaller than the one it saw', async () => {
    const smaller = logOf(69_999);
    smaller.sign();
    const result = await verify(fetchOf(smaller), first);
    expect(!result.ok && result.error.type).to.equal('tree_shrank');
  });

  it('names the tile that does not match the entries', async () => {
    const cases: Array<[target: string, expected: string]> = [
      ['tile/0/005', 'tile/0/005'],
      ['tile/entries/005', 'tile/0/005'],
      ['tile/0/273.p/112', 'tile/0/273.p/112'],
      ['tile/1/000', 'tile/1/000'],
      ['tile/2/000.p/1', 'tile/2/000.p/1'],
    ];
    for (const [target, path] of cases) {
      const result = await verify(tampered(log, target, flipFirstByte));
      expect(result.ok ? 'ok' : result.error, target).to.deep.equal({ type: 'tile_mismatch', path });
    }
  });

  it('reports a missing or malformed resource by its path', async () => {
    const missing = await verify(tampered(log, 'tile/1/001.p/17', () => null));
    expect(!missing.ok && missing.error).to.deep.equal({
      type: 'resource_unavailable',
      path: 'tile/1/001.p/17',
    });
    const cut = await verify(tampered(log, 'tile/entries/007', (bytes) => bytes.slice(0, -1)));
    expect(!cut.ok && cut.error).to.deep.include({ type: 'resource_malformed', path: 'tile/entries/007' });
    const short = await verify(tampered(log, 'tile/0/007', (bytes) => bytes.slice(0, -32)));
    expect(!short.ok && short.error).to.deep.include({ type: 'resource_malformed', path: 'tile/0/007' });
    const gone = await verify(async () => null);
    expect(!gone.ok && gone.error).to.deep.equal({ type: 'checkpoint_unavailable' });
  });

  it('refuses a checkpoint whose root the entries do not give', async () => {
    const signer = noteSigner(crypto, ORIGIN, pair);
    const lie = signCheckpoint(
      { origin: ORIGIN, size: 70_000, rootHash: crypto.sha256(entry(1)), extensions: [] },
      signer,
    );
    const result = await verify(async (path) =>
      path === 'checkpoint' ? new TextEncoder().encode(lie) : log.fetch(path),
    );
    expect(!result.ok && result.error).to.deep.equal({ type: 'root_mismatch', size: 70_000 });
  });

  it('catches a changed old hash inside a grown tile, which it takes as served', async () => {
    const small = logOf(600);
    small.sign();
    const seen = await verify(fetchOf(small));
    if (!seen.ok) throw new Error('first pass');
    small.append(...Array.from({ length: 200 }, (_, i) => entry(600 + i)));
    small.sign();
    // tile/1/000.p/3 holds the roots of level-0 tiles 0 and 1 (complete at 600) and 2 (new).
    const result = await verify(tampered(small, 'tile/1/000.p/3', flipFirstByte), seen.value.state);
    expect(!result.ok && result.error.type).to.equal('root_mismatch');
    expect((await verify(fetchOf(small), seen.value.state)).ok).to.equal(true);
  });

  it('reads back only a state it could have written', () => {
    expect(parseVerifierState(null)).to.equal(null);
    expect(parseVerifierState({ ...first, size: -1 })).to.equal(null);
    expect(parseVerifierState({ ...first, size: 1.5 })).to.equal(null);
    expect(parseVerifierState({ ...first, rootHash: 'AAAA' })).to.equal(null);
    expect(parseVerifierState({ ...first, checkpoint: undefined })).to.equal(null);
  });
});
