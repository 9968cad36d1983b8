// An RsaSignature2017 verifier written from the reference (activitypub-interop.md §5, Mastodon's
// linked_data_signature.rb), sharing no code with src/: the tests check the signer against it.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import jsonldModule from 'jsonld';

/** A private jsonld instance (the module's export is also a factory), so no context cache is shared with src/. */
const jsonld = (jsonldModule as unknown as () => typeof jsonldModule)();

const contextsDir = new URL('../../src/adapters/crypto/ld-signature/contexts/', import.meta.url);
const contexts: Record<string, unknown> = {
  'https://www.w3.org/ns/activitystreams': JSON.parse(
    readFileSync(new URL('activitystreams.json', contextsDir), 'utf8'),
  ),
  'https://w3id.org/security/v1': JSON.parse(readFileSync(new URL('security-v1.json', contextsDir), 'utf8')),
  'https://w3id.org/identity/v1': JSON.parse(readFileSync(new URL('identity-v1.json', contextsDir), 'utf8')),
};

async function loader(url: string) {
  if (!(url in contexts)) throw new Error(`independent verifier: no such context ${url}`);
  return { contextUrl: null, documentUrl: url, document: contexts[url] };
}

async function urdna2015Sha256(doc: Record<string, unknown>): Promise<string> {
  const nquads = await jsonld.canonize(doc, {
    format: 'application/n-quads',
    documentLoader: loader,
    safe: true,
    canonizeOptions: { algorithm: 'URDNA2015' },
  } as unknown as Parameters<typeof jsonld.canonize>[1]);
  return createHash('sha256').update(nquads).digest('hex');
}

/**
 * True when `document` carries a valid RsaSignature2017 made with the key of `publicKeyPem`, and, if it has an
 * `actor`, the signature's creator is `<actor>#main-key`. Any error (unknown context, safe-mode violation,
 * malformed key) is a false.
 */
export async function verifyLdSignature(
  document: Record<string, unknown>,
  publicKeyPem: string,
): Promise<boolean> {
  try {
    const { signature, ...rest } = document;
    if (!signature || typeof signature !== 'object') return false;
    const sig = signature as Record<string, unknown>;
    if (sig.type !== 'RsaSignature2017' || typeof sig.signatureValue !== 'string') return false;
    if ('actor' in document && sig.creator !== `${String(document.actor)}#main-key`) return false;

    const options: Record<string, unknown> = { '@context': 'https://w3id.org/identity/v1' };
    for (const [k, v] of Object.entries(sig))
      if (k !== 'type' && k !== 'id' && k !== 'signatureValue') options[k] = v;

    const toSign = (await urdna2015Sha256(options)) + (await urdna2015Sha256(rest));
    return verify(
      'RSA-SHA256',
      Buffer.from(toSign),
      createPublicKey(publicKeyPem),
      Buffer.from(sig.signatureValue, 'base64'),
    );
  } catch {
    return false;
  }
}
