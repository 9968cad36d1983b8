// What readers of the transparency log get (API.md §8), on the use-case kit with the test signing key: GetCheckpoint,
// GetVerifierKey, GetLogResource, ProveInclusion and GetActivityEntry — each checked as a monitor would check it.
import { expect } from 'chai';
import { nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import {
  decodeEntryBundle,
  entryBundle,
  formatTilePath,
  hashTile,
  leafHash,
  openCheckpoint,
  parseVerifierKey,
  verifyTlogProof,
  type NoteVerifierKey,
} from '@l2/tlog';
import { testVerifierKey } from '../../../support/tlog-test-key.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import { registered, type Kit } from '../accounts/account-fixtures.js';

const ORIGIN = 'l2.example/tlog';
const WRITES = 3;

/** alice with WRITES assets: the log holds WRITES entries, covered by a signed checkpoint. */
async function logOfThree(): Promise<Kit> {
  const kit = useCaseKit();
  const alice = await registered(kit);
  for (let i = 0; i < WRITES; i++) {
    const made = await kit.registerAsset.execute({
      writer: alice.claims,
      name: `scene-${i}`,
      fields: {
        contentHash: `sha256:${String(i).repeat(64)}`,
        mediaType: 'model/gltf-binary',
        url: null,
        description: `Scene ${i}`,
        altText: null,
        sensitive: false,
        tags: [],
      },
    });
    if (!made.ok) throw new Error(made.error.type);
  }
  return kit;
}

function verifierKey(kit: Kit): NoteVerifierKey {
  const key = parseVerifierKey(nodeSha256, kit.useCases.getVerifierKey.execute());
  if (!key.ok) throw new Error(key.error.type);
  return key.value;
}

async function entries(kit: Kit): Promise<Uint8Array[]> {
  const found = await Promise.all(
    Array.from({ length: WRITES }, (_, idx) => kit.useCases.getActivityEntry.execute(idx)),
  );
  return found.map((entry) => entry!);
}

describe('GetVerifierKey', () => {
  it('serves the verifier key of the configured signing key, named for the log’s origin', () => {
    const kit = useCaseKit();
    expect(kit.useCases.getVerifierKey.execute()).to.equal(testVerifierKey(ORIGIN));
    expect(verifierKey(kit).name).to.equal(ORIGIN);
  });
});

describe('GetCheckpoint', () => {
  it('serves none before the log was checked, then a checkpoint signed by the log’s key covering every write', async () => {
    const kit = useCaseKit();
    expect(await kit.useCases.getCheckpoint.execute()).to.equal(null);
    await kit.l2.services.transparencyLog.start();
    const empty = await kit.useCases.getCheckpoint.execute();
    const opened = openCheckpoint(empty!.note, verifierKey(kit), verifyEd25519);
    expect(opened.ok && opened.value.checkpoint.size).to.equal(0);

    const written = await logOfThree();
    const latest = await written.useCases.getCheckpoint.execute();
    const covering = openCheckpoint(latest!.note, verifierKey(written), verifyEd25519);
    expect(covering.ok && covering.value.checkpoint.size).to.equal(WRITES);
  });
});

describe('GetActivityEntry', () => {
  it('serves an activity’s stored bytes: its document exactly as signed; nothing for an idx not in the log', async () => {
    const kit = await logOfThree();
    const entry = await kit.useCases.getActivityEntry.execute(1);
    const activity = await kit.useCases.getActivity.execute(1);
    expect(JSON.parse(Buffer.from(entry!).toString('utf8'))).to.deep.equal(activity!.document);
    for (const idx of [WRITES, -1, 1.5])
      expect(await kit.useCases.getActivityEntry.execute(idx)).to.equal(null);
  });
});

describe('GetLogResource', () => {
  const plain = { gzip: false, client: () => '192.0.2.1' };

  it('serves the entry bundle and the hash tile the checkpoint covers, as tlog-tiles defines them', async () => {
    const kit = await logOfThree();
    const all = await entries(kit);

    const bundle = await kit.useCases.getLogResource.execute(formatTilePath(entryBundle(0, WRITES)), plain);
    if (!bundle.ok) throw new Error(bundle.error.type);
    expect({ kind: bundle.value.kind, full: bundle.value.full }).to.deep.equal({
      kind: 'entries',
      full: false,
    });
    expect(decodeEntryBundle(bundle.value.bytes)).to.deep.equal(all);

    const tile = await kit.useCases.getLogResource.execute(formatTilePath(hashTile(0, 0, WRITES)), plain);
    if (!tile.ok) throw new Error(tile.error.type);
    expect({ kind: tile.value.kind, full: tile.value.full }).to.deep.equal({ kind: 'tile', full: false });
    expect(Buffer.from(tile.value.bytes)).to.deep.equal(
      Buffer.concat(all.map((e) => leafHash(nodeSha256, e))),
    );
  });

  it('serves nothing the latest checkpoint does not cover, and nothing at a path tlog-tiles does not spell', async () => {
    const kit = await logOfThree();
    for (const path of [
      formatTilePath(entryBundle(0, WRITES + 1)),
      formatTilePath(hashTile(0, 0, WRITES + 1)),
      formatTilePath(hashTile(0, 1, 1)),
      'tile/0/0.p/3',
      'tile/entries/000.p/3/',
    ])
      expect(await kit.useCases.getLogResource.execute(path, plain), path).to.deep.equal({
        ok: false,
        error: { type: 'not_found' },
      });
  });
});

describe('ProveInclusion', () => {
  it('proves an activity in the latest checkpoint to anyone holding the verifier key', async () => {
    const kit = await logOfThree();
    const [, second] = await entries(kit);
    const proof = await kit.useCases.proveInclusion.execute(1);

    const verified = verifyTlogProof(nodeSha256, verifyEd25519, proof!, second!, verifierKey(kit));
    expect(
      verified.ok && { index: verified.value.index, size: verified.value.checkpoint.size },
    ).to.deep.equal({
      index: 1,
      size: WRITES,
    });
    const [first] = await entries(kit);
    expect(verifyTlogProof(nodeSha256, verifyEd25519, proof!, first!, verifierKey(kit)).ok).to.equal(false);
  });

  it('proves nothing for an idx the checkpoint does not cover', async () => {
    const kit = await logOfThree();
    for (const idx of [WRITES, -1, 0.5])
      expect(await kit.useCases.proveInclusion.execute(idx)).to.equal(null);
  });
});
