import { expect } from 'chai';
import { keyIdOf } from '../../../src/adapters/signatures/signature-key-id.js';

describe('keyIdOf (the key a signature names, from its headers alone)', () => {
  it('reads the keyId of a draft-cavage Signature, or of Authorization: Signature', () => {
    const signature =
      'keyId="https://peer.example/users/bob#main-key",algorithm="rsa-sha256",headers="date",signature="AA=="';
    expect(keyIdOf({ headers: { signature } })).to.equal('https://peer.example/users/bob#main-key');
    expect(keyIdOf({ headers: { authorization: `Signature ${signature}` } })).to.equal(
      'https://peer.example/users/bob#main-key',
    );
  });

  it('reads the keyid of the first RFC 9421 signature that names one', () => {
    const headers = {
      'signature-input':
        'sig1=("@method");created=1,sig2=("@method" "@path");keyid="https://peer.example/k";created=1',
      signature: 'sig2=:AA==:',
    };
    expect(keyIdOf({ headers })).to.equal('https://peer.example/k');
  });

  it('names no key for an unsigned request or a header it cannot read', () => {
    expect(keyIdOf({ headers: {} })).to.equal(null);
    expect(keyIdOf({ headers: { signature: 'not a signature' } })).to.equal(null);
    expect(keyIdOf({ headers: { 'signature-input': '((' } })).to.equal(null);
  });
});
