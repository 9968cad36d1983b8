import { expect } from 'chai';
import {
  ed25519KeyPairFromPkcs8Pem,
  generateEd25519Pkcs8Pem,
  nodeSha256 as crypto,
  verifyEd25519,
} from '@l2/tlog/node-crypto';
import {
  encodeBase64,
  formatCheckpoint,
  formatTlogProof,
  openCheckpoint,
  parseCheckpoint,
  parseTlogProof,
  parseVerifierKey,
  proveInclusion,
  verifyTlogProof,
  type NoteVerifierKey,
} from '@l2/tlog';
import { MemoryTransparencyLog } from '../../../support/memory-transparency-log.js';
import { b64 } from './fixtures.js';

const ORIGIN = 'l2.example/tlog';

describe('transparency: checkpoints (c2sp.org/tlog-checkpoint)', () => {
  it('reads the example checkpoint of the spec', () => {
    const parsed = parseCheckpoint(
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
    );
    expect(parsed).to.deep.equal({
      ok: true,
      value: {
        origin: 'example.com/behind-the-sofa',
        size: 20_852_163,
        rootHash: b64('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I='),
        extensions: [],
      },
    });
  });

  it('writes what it reads, extension lines included', () => {
    const checkpoint = { origin: ORIGIN, size: 0, rootHash: crypto.sha256(), extensions: ['an extension'] };
    const text = formatCheckpoint(checkpoint);
    expect(text).to.equal(`${ORIGIN}\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\nan extension\n`);
    expect(parseCheckpoint(text)).to.deep.equal({ ok: true, value: checkpoint });
  });

  it('refuses malformed checkpoints', () => {
    const root = encodeBase64(crypto.sha256());
    for (const text of [
      `${ORIGIN}\n1\n${root}`, // no final newline
      `${ORIGIN}\n1\n`, // two lines
      `\n1\n${root}\n`, // empty origin
      `${ORIGIN}\n01\n${root}\n`, // leading zero
      `${ORIGIN}\n-1\n${root}\n`,
      `${ORIGIN}\n1.0\n${root}\n`,
      `${ORIGIN}\n99999999999999999999\n${root}\n`,
      `${ORIGIN}\n1\n${root.slice(0, -4)}\n`, // short hash
      `${ORIGIN}\n1\n${root.replace('=', '')}\n`, // unpadded
      `${ORIGIN}\n1\n${root}\n\n`, // empty extension line
    ]) {
      expect(parseCheckpoint(text).ok, JSON.stringify(text)).to.equal(false);
    }
  });
});

describe('transparency: signed checkpoints and tlog-proofs (c2sp.org/tlog-proof)', () => {
  const pair = ed25519KeyPairFromPkcs8Pem(generateEd25519Pkcs8Pem());
  const log = new MemoryTransparencyLog(ORIGIN, pair);
  let note = '';
  let key: NoteVerifierKey;

  before(() => {
    for (let i = 0; i < 1000; i++) log.append(new TextEncoder().encode(`{"id":${i}}`));
    note = log.sign();
    const parsed = parseVerifierKey(crypto, log.verifierKey);
    if (!parsed.ok) throw new Error('key');
    key = parsed.value;
  });

  const proofOf = async (index: number, extra?: Uint8Array) =>
    formatTlogProof({
      index,
      inclusionProof: await proveInclusion(crypto, log.reader, index, 1000),
      checkpoint: note,
      ...(extra ? { extra } : {}),
    });

  it('opens the checkpoint it signed, under the key it serves', () => {
    const opened = openCheckpoint(note, key, verifyEd25519);
    expect(opened.ok && opened.value.checkpoint).to.deep.include({ origin: ORIGIN, size: 1000 });
    expect(opened.ok && opened.value.checkpoint.rootHash).to.deep.equal(log.root());
    const elsewhere = openCheckpoint(note, key, verifyEd25519, 'other.example/tlog');
    expect(elsewhere).to.deep.include({ ok: false });
    if (!elsewhere.ok) expect(elsewhere.error.type).to.equal('origin_mismatch');
  });

  it('writes a proof in the layout of the spec, and verifies it for its entry', async () => {
    const text = await proofOf(700, new Uint8Array([1, 2, 3]));
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).to.deep.equal(['c2sp.org/tlog-proof@v1', 'extra AQID', 'index 700']);
    expect(lines.slice(3, 13).every((line) => b64(line).length === 32)).to.equal(true);
    expect(lines[13]).to.equal('');
    expect(text.endsWith(`\n\n${note}`)).to.equal(true);
    const verified = verifyTlogProof(crypto, verifyEd25519, text, log.entries[700]!, key);
    expect(verified.ok && verified.value).to.deep.include({ index: 700 });
  });

  it('refuses a proof for another entry, another index, a changed checkpoint or another log', async () => {
    const text = await proofOf(700);
    const failures = [
      verifyTlogProof(crypto, verifyEd25519, text, log.entries[701]!, key),
      verifyTlogProof(crypto, verifyEd25519, text.replace('index 700', 'index 701'), log.entries[701]!, key),
      verifyTlogProof(crypto, verifyEd25519, text.replace('index 700', 'index 1000'), log.entries[700]!, key),
      verifyTlogProof(
        crypto,
        verifyEd25519,
        text.replace(`${ORIGIN}\n1000\n`, `${ORIGIN}\n1001\n`),
        log.entries[700]!,
        key,
      ),
      verifyTlogProof(crypto, verifyEd25519, text, log.entries[700]!, key, 'other.example/tlog'),
    ];
    expect(failures.map((result) => (result.ok ? 'ok' : result.error.type))).to.deep.equal([
      'inclusion_proof_invalid',
      'inclusion_proof_invalid',
      'index_beyond_checkpoint',
      'invalid_signature',
      'origin_mismatch',
    ]);
  });

  it('reads the example proof of the spec (its signatures are elided there, so only its layout)', () => {
    const example = [
      'c2sp.org/tlog-proof@v1',
      'extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ',
      'index 73894',
      'gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=',
      'B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=',
      'EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=',
      'RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=',
      'AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=',
      '',
      'example.com/fancylog',
      '109482',
      'sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=',
      '',
      '— example.com/fancylog hI2DJw[...]1roloI=',
      '',
    ].join('\n');
    const parsed = parseTlogProof(example);
    expect(parsed.ok).to.equal(true);
    if (!parsed.ok) return;
    expect(parsed.value.index).to.equal(73_894);
    expect(parsed.value.inclusionProof).to.have.length(5);
    expect(new TextDecoder().decode(parsed.value.extra)).to.match(/^age-v1\.2\.1-darwin-arm64\.tar\.gz/);
    expect(parsed.value.checkpoint.startsWith('example.com/fancylog\n109482\n')).to.equal(true);
  });

  it('refuses malformed proofs', async () => {
    const text = await proofOf(3);
    for (const bad of [
      text.replace('c2sp.org/tlog-proof@v1', 'c2sp.org/tlog-proof@v2'),
      text.replace('index 3', 'index 03'),
      text.replace('index 3', 'idx 3'),
      text.replace('index 3\n', 'index 3\nnot-base64\n'),
      text.replace('index 3\n', 'index 3\nAAAA\n'),
      text.replace('index 3\n', 'extra !!\nindex 3\n'),
      text.replace('\n\n', '\n'),
    ]) {
      expect(parseTlogProof(bad).ok, bad.slice(0, 60)).to.equal(false);
    }
  });
});
