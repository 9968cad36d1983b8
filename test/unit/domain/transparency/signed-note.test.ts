import { expect } from 'chai';
import {
  ed25519KeyPairFromPkcs8Pem,
  generateEd25519Pkcs8Pem,
  nodeSha256 as crypto,
  verifyEd25519,
} from '@l2/tlog/node-crypto';
import {
  formatVerifierKey,
  MAX_NOTE_SIGNATURES,
  noteSigner,
  openNote,
  parseVerifierKey,
  signNote,
  verifierKeyOf,
  type NoteVerifierKey,
} from '@l2/tlog';
import { b64 } from './fixtures.js';

// c2sp.org/signed-note, "Verifier keys" → "Example".
const SPEC_KEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
const SPEC_NOTE =
  'This is an example message.\n\n' +
  '— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';

// golang.org/x/mod/sumdb/note, its package documentation and tests.
const PETER_SIGNER_KEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const PETER_KEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const ENOCH_KEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const GO_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIGNATURE =
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIGNATURE =
  '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';

const key = (text: string): NoteVerifierKey => {
  const parsed = parseVerifierKey(crypto, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
};

/** The Ed25519 seed of a sumdb signer key, wrapped as PKCS#8 (RFC 8410) for node:crypto. */
function pemOfSumdbSignerKey(signerKey: string): string {
  const seed = b64(signerKey.split('+').slice(4).join('+')).slice(1);
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`;
}

describe('transparency: verifier keys (c2sp.org/signed-note)', () => {
  it('parses the spec example into its name, key ID and Ed25519 key, and writes it back byte for byte', () => {
    const parsed = key(SPEC_KEY);
    expect(parsed.name).to.equal('example.com/foo');
    expect(parsed.keyId).to.equal(0x530d903a);
    expect(parsed.publicKey).to.have.length(32);
    expect(formatVerifierKey(crypto, parsed.name, parsed.publicKey)).to.equal(SPEC_KEY);
    expect(formatVerifierKey(crypto, 'PeterNeumann', key(PETER_KEY).publicKey)).to.equal(PETER_KEY);
  });

  it('derives the key of a sumdb signer key exactly as Go does', () => {
    const pair = ed25519KeyPairFromPkcs8Pem(pemOfSumdbSignerKey(PETER_SIGNER_KEY));
    expect(formatVerifierKey(crypto, 'PeterNeumann', pair.publicKey)).to.equal(PETER_KEY);
  });

  it('refuses malformed keys, another algorithm, and a key ID its key does not give', () => {
    const cases: Record<string, string> = {
      'example.com/foo+530d903a': 'malformed_verifier_key',
      'example.com/foo+530D903A+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k': 'malformed_verifier_key',
      'example.com/foo+530d903+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k': 'malformed_verifier_key',
      'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2': 'malformed_verifier_key',
      'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2kAA==': 'malformed_verifier_key',
      'exa mple.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k': 'malformed_verifier_key',
      '+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k': 'malformed_verifier_key',
      'example.com/foo+530d903a+AukyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k': 'unsupported_signature_type',
      'example.com/fop+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k': 'key_id_mismatch',
    };
    for (const [text, type] of Object.entries(cases)) {
      const parsed = parseVerifierKey(crypto, text);
      expect(parsed.ok, text).to.equal(false);
      if (!parsed.ok) expect(parsed.error.type, text).to.equal(type);
    }
  });
});

describe('transparency: signed notes (c2sp.org/signed-note)', () => {
  it('opens the example note of the spec with its verifier key', () => {
    const opened = openNote(SPEC_NOTE, [key(SPEC_KEY)], verifyEd25519);
    expect(opened.ok).to.equal(true);
    if (!opened.ok) return;
    expect(opened.value.text).to.equal('This is an example message.\n');
    expect(opened.value.verified.map((s) => s.name)).to.deep.equal(['example.com/foo']);
    expect(opened.value.unverified).to.deep.equal([]);
  });

  it('signs as Go does: the same key and text give the same note, byte for byte (Ed25519 is deterministic)', () => {
    const pair = ed25519KeyPairFromPkcs8Pem(pemOfSumdbSignerKey(PETER_SIGNER_KEY));
    expect(signNote(GO_TEXT, [noteSigner(crypto, 'PeterNeumann', pair)])).to.equal(
      `${GO_TEXT}\n${PETER_SIGNATURE}`,
    );
  });

  it('ignores signatures by keys it was not given, but needs one by a key it was', () => {
    const both = `${GO_TEXT}\n${PETER_SIGNATURE}${ENOCH_SIGNATURE}`;
    const byPeter = openNote(both, [key(PETER_KEY)], verifyEd25519);
    expect(byPeter.ok && byPeter.value.unverified.map((s) => s.name)).to.deep.equal(['EnochRoot']);
    const byBoth = openNote(both, [key(PETER_KEY), key(ENOCH_KEY)], verifyEd25519);
    expect(byBoth.ok && byBoth.value.verified.map((s) => s.name)).to.deep.equal([
      'PeterNeumann',
      'EnochRoot',
    ]);
    expect(openNote(both, [key(SPEC_KEY)], verifyEd25519)).to.deep.include({
      ok: false,
      error: { type: 'no_verified_signature' },
    });
    // Same name, other ID (and the reverse): still unknown, so ignored.
    const sameNameOtherKey = { ...key(PETER_KEY), keyId: 0x01020304 };
    expect(openNote(both, [sameNameOtherKey, key(ENOCH_KEY)], verifyEd25519).ok).to.equal(true);
  });

  it('refuses the whole note when a known key’s signature does not verify', () => {
    const forged = `${GO_TEXT.replace('cryptography', 'blockchain')}\n${PETER_SIGNATURE}${ENOCH_SIGNATURE}`;
    const opened = openNote(forged, [key(ENOCH_KEY)], verifyEd25519);
    expect(opened).to.deep.include({ ok: false });
    if (!opened.ok)
      expect(opened.error).to.deep.include({
        type: 'invalid_signature',
        name: 'EnochRoot',
        keyId: 0xaf0cfe78,
      });
    // A good signature repeated with a bad copy is refused too: every known signature is checked.
    const badCopy = PETER_SIGNATURE.replace('NXgKvqfq', 'NXgKvqfr');
    expect(openNote(`${GO_TEXT}\n${PETER_SIGNATURE}${badCopy}`, [key(PETER_KEY)], verifyEd25519).ok).to.equal(
      false,
    );
  });

  it('refuses to choose between two known keys with the same name and ID', () => {
    const twin = { ...key(PETER_KEY), publicKey: key(ENOCH_KEY).publicKey };
    const opened = openNote(`${GO_TEXT}\n${PETER_SIGNATURE}`, [key(PETER_KEY), twin], verifyEd25519);
    expect(opened).to.deep.include({ ok: false });
    if (!opened.ok) expect(opened.error.type).to.equal('ambiguous_verifier_keys');
  });

  it('refuses malformed notes', () => {
    const peter = [key(PETER_KEY)];
    const malformed = [
      `${GO_TEXT}${PETER_SIGNATURE}`, // no blank line
      `${GO_TEXT}\n${PETER_SIGNATURE.trimEnd()}`, // no final newline
      `${GO_TEXT}\n`, // no signature
      `${GO_TEXT}\n- PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      `${GO_TEXT}\n— PeterNeumann  x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      `${GO_TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM\n`,
      `${GO_TEXT}\n— PeterNeumann x08goA==\n`, // a key ID and no signature
      `${GO_TEXT}\n— Peter+Neumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      `${GO_TEXT.replace('problem,', 'problem,\t')}\n${PETER_SIGNATURE}`, // a control character
      `${GO_TEXT}\n${PETER_SIGNATURE}`.replace('\n', '\r\n'),
      new Uint8Array([...Buffer.from(`${GO_TEXT}\n${PETER_SIGNATURE}`), 0xff]), // not UTF-8
      `${GO_TEXT}\n${PETER_SIGNATURE.repeat(MAX_NOTE_SIGNATURES + 1)}`,
    ];
    for (const note of malformed) {
      const opened = openNote(note, peter, verifyEd25519);
      expect(opened.ok, String(note)).to.equal(false);
      if (!opened.ok) expect(opened.error.type, String(note)).to.equal('malformed_note');
    }
  });

  it('takes the last blank line as the end of the text, which may hold blank lines itself', () => {
    const pair = ed25519KeyPairFromPkcs8Pem(generateEd25519Pkcs8Pem());
    const text =
      'Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n';
    const note = signNote(text, [noteSigner(crypto, 'quasimodo.example/salvatore', pair)]);
    const opened = openNote(
      note,
      [verifierKeyOf(crypto, 'quasimodo.example/salvatore', pair)],
      verifyEd25519,
    );
    expect(opened.ok && opened.value.text).to.equal(text);
    expect(() => signNote('no final newline', [noteSigner(crypto, 'a', pair)])).to.throw(RangeError);
    expect(() => noteSigner(crypto, 'a b', pair)).to.throw(RangeError);
  });
});
