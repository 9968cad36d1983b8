import { expect } from 'chai';
import fc from 'fast-check';
import { decodeEntryBundle, encodeEntryBundle, MAX_ENTRY_SIZE } from '@l2/tlog';

describe('transparency: entry bundles (c2sp.org/tlog-tiles)', () => {
  it('writes each entry as a big-endian uint16 length and its bytes', () => {
    const bundle = encodeEntryBundle([
      new Uint8Array([0xaa]),
      new Uint8Array(0),
      new Uint8Array(258).fill(7),
    ]);
    expect([...bundle.slice(0, 6)]).to.deep.equal([0x00, 0x01, 0xaa, 0x00, 0x00, 0x01]);
    expect(bundle[6]).to.equal(0x02);
    expect(bundle).to.have.length(3 + 2 + 2 + 258);
  });

  it('reads back what it writes, up to 256 entries of up to 65,535 bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 256 }),
        (entries) => {
          expect(decodeEntryBundle(encodeEntryBundle(entries))).to.deep.equal(entries);
        },
      ),
      { numRuns: 100 },
    );
    const largest = new Uint8Array(MAX_ENTRY_SIZE).fill(1);
    expect(decodeEntryBundle(encodeEntryBundle([largest]))).to.deep.equal([largest]);
  });

  it('refuses an entry over 65,535 bytes, an empty bundle and one over 256 entries', () => {
    expect(() => encodeEntryBundle([new Uint8Array(MAX_ENTRY_SIZE + 1)])).to.throw(RangeError);
    expect(() => encodeEntryBundle([])).to.throw(RangeError);
    expect(() => encodeEntryBundle(Array.from({ length: 257 }, () => new Uint8Array(1)))).to.throw(
      RangeError,
    );
  });

  it('refuses bytes that end inside a length or an entry', () => {
    expect(decodeEntryBundle(new Uint8Array([0x00]))).to.equal(null);
    expect(decodeEntryBundle(new Uint8Array([0x00, 0x02, 0x01]))).to.equal(null);
    expect(decodeEntryBundle(new Uint8Array([0x00, 0x01, 0x01, 0x00]))).to.equal(null);
  });
});
