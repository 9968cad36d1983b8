import { verify } from 'node:crypto';
import {
  bundledDocumentLoader,
  UnbundledContextError,
  type DocumentLoader,
} from './bundled-document-loader.js';
import { canonicalSha256, optionsSha256, RSA_SIGNATURE_2017 } from './json-ld-activity-signer.js';

/**
 * Checks the RsaSignature2017 Linked Data Signature of `document` against `publicKeyPem`, as Mastodon does:
 * the options hash covers `signature` minus type/id/signatureValue under identity/v1 (so a Misskey `nonce` is
 * covered too), the document hash covers the document minus `signature`.
 *
 * Returns false, never throws, for a missing or malformed signature, another signature type, a document that
 * cannot be canonicalised faithfully (undefined term or type, relative IRI: part of it would be unsigned), an
 * unusable key, or a signature that does not match. Throws {@link UnbundledContextError} only when the document
 * uses a context that is not bundled, since then nothing can be said about it.
 *
 * It checks the signature only: resolving `signature.creator` to `publicKeyPem`, and checking that the key's
 * owner is the activity's `actor`, is the caller's job.
 */
export async function verifyRsaSignature2017(
  document: Record<string, unknown>,
  publicKeyPem: string,
  documentLoader: DocumentLoader = bundledDocumentLoader,
): Promise<boolean> {
  const { signature, ...unsigned } = document;
  if (typeof signature !== 'object' || signature === null || Array.isArray(signature)) return false;
  const options = signature as Record<string, unknown>;
  const { type, creator, created, signatureValue } = options;
  if (type !== RSA_SIGNATURE_2017) return false;
  if (typeof creator !== 'string' || typeof created !== 'string' || typeof signatureValue !== 'string')
    return false;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signatureValue)) return false;

  let optionsHash: string;
  let documentHash: string;
  try {
    [optionsHash, documentHash] = await Promise.all([
      optionsSha256(options, documentLoader),
      canonicalSha256(unsigned, documentLoader),
    ]);
  } catch (error) {
    if (error instanceof UnbundledContextError) throw error;
    return false;
  }

  try {
    return verify(
      'sha256',
      Buffer.from(optionsHash + documentHash, 'utf8'),
      publicKeyPem,
      Buffer.from(signatureValue, 'base64'),
    );
  } catch {
    return false; // not a usable public key
  }
}
