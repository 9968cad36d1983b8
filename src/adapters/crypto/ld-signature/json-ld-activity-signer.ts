import { createHash, sign } from 'node:crypto';
import type * as JsonLdModule from 'jsonld';
import type { JsonLdDocument as JsonLdInput, Options } from 'jsonld';
import type {
  ActivitySigner,
  JsonLdDocument,
  SigningKey,
} from '../../../application/ports/activity-signer.js';
import {
  bundledDocumentLoader,
  IDENTITY_V1_CONTEXT_URL,
  UnbundledContextError,
  type DocumentLoader,
} from './bundled-document-loader.js';

export const RSA_SIGNATURE_2017 = 'RsaSignature2017';

type JsonLd = typeof JsonLdModule;
let loading: Promise<JsonLd> | null = null;
/**
 * The JSON-LD processor, loaded when the first activity is signed: a process that only verifies tokens and serves
 * pages never pays its few MiB. (A CommonJS module: its API is the namespace's default.)
 */
const jsonLd = (): Promise<JsonLd> =>
  (loading ??= import('jsonld').then((m) => (m as unknown as { default?: JsonLd }).default ?? m));

/** The document cannot be signed faithfully: canonicalisation would leave part of it out of the signature. */
export class UnsignableDocumentError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'UnsignableDocumentError';
  }
}

/**
 * jsonld 9's canonize options. `@types/jsonld` (1.5) predates `safe` and `canonizeOptions`; jsonld 9 ignores a
 * top-level `algorithm` and reads `canonizeOptions.algorithm` instead. `RDFC-1.0` is the W3C name of URDNA2015
 * (rdf-canonize 5 treats "URDNA2015" as a deprecated alias of it). `safe: true` (jsonld 9's default for canonize,
 * set here explicitly) makes an undefined term, a relative IRI, etc. an error instead of a silently dropped triple.
 */
type CanonizeOptions = Options.Normalize & {
  safe: true;
  canonizeOptions: { algorithm: 'RDFC-1.0' };
};

/** An rdf:type whose object is a blank node: a `type` name the context does not define, expanded by the
 * ActivityStreams context's `"@vocab": "_:"`. Canonicalisation relabels blank nodes, so such a type is unsigned. */
const UNSIGNED_TYPE = /^\S+ <http:\/\/www\.w3\.org\/1999\/02\/22-rdf-syntax-ns#type> _:/m;

/**
 * The hex SHA-256 of the URDNA2015 canonical N-Quads of `document`, with contexts from `documentLoader` only.
 * Throws {@link UnbundledContextError} for a context that is not bundled and {@link UnsignableDocumentError} when
 * part of the document would not be covered by the hash (an undefined term or type, a relative IRI, ...).
 */
export async function canonicalSha256(document: object, documentLoader: DocumentLoader): Promise<string> {
  const options: CanonizeOptions = {
    format: 'application/n-quads',
    // @types/jsonld types the loader with a legacy callback parameter (never passed by jsonld 9) and no null contextUrl.
    documentLoader: documentLoader as unknown as Options.DocLoader['documentLoader'],
    safe: true,
    canonizeOptions: { algorithm: 'RDFC-1.0' },
  };
  let nquads: string;
  try {
    nquads = await (await jsonLd()).canonize(document as JsonLdInput, options);
  } catch (error) {
    const unbundled = findCause(error, (e): e is UnbundledContextError => e instanceof UnbundledContextError);
    if (unbundled) throw unbundled;
    throw new UnsignableDocumentError(`JSON-LD canonicalisation refused the document: ${describe(error)}`, {
      cause: error,
    });
  }
  const unsignedType = UNSIGNED_TYPE.exec(nquads);
  if (unsignedType) {
    throw new UnsignableDocumentError(
      `a "type" is not defined by the document's @context, so it would not be signed: ${unsignedType[0]}`,
    );
  }
  return createHash('sha256').update(nquads, 'utf8').digest('hex');
}

/** The hash of the signature options, as Mastodon computes it: the options under the identity/v1 context. */
export function optionsSha256(
  options: Record<string, unknown>,
  documentLoader: DocumentLoader,
): Promise<string> {
  const { type: _type, id: _id, signatureValue: _value, ...rest } = options;
  return canonicalSha256({ '@context': IDENTITY_V1_CONTEXT_URL, ...rest }, documentLoader);
}

/** RsaSignature2017 (URDNA2015 + RSA-SHA256), exactly as Mastodon signs: see the reference's §5. */
export class JsonLdActivitySigner implements ActivitySigner {
  constructor(private readonly documentLoader: DocumentLoader = bundledDocumentLoader) {}

  async sign(document: JsonLdDocument, key: SigningKey, created: Date): Promise<JsonLdDocument> {
    const { signature: _previous, ...unsigned } = document;
    const options = { type: RSA_SIGNATURE_2017, creator: key.keyId, created: created.toISOString() };
    const [optionsHash, documentHash] = await Promise.all([
      optionsSha256(options, this.documentLoader),
      canonicalSha256(unsigned, this.documentLoader),
    ]);
    // The signed input is the 128 hex characters, not the raw digests. RSA keys sign with PKCS#1 v1.5 by default.
    const signatureValue = sign('sha256', Buffer.from(optionsHash + documentHash, 'utf8'), key.privateKeyPem);
    return { ...unsigned, signature: { ...options, signatureValue: signatureValue.toString('base64') } };
  }
}

function findCause<T>(error: unknown, match: (e: unknown) => e is T, depth = 0): T | undefined {
  if (match(error)) return error;
  if (typeof error !== 'object' || error === null || depth > 8) return undefined;
  const { cause, details } = error as { cause?: unknown; details?: { cause?: unknown } };
  return (
    (cause === undefined ? undefined : findCause(cause, match, depth + 1)) ??
    (details?.cause === undefined ? undefined : findCause(details.cause, match, depth + 1))
  );
}

/** jsonld's safe-mode errors carry the offending event (e.g. "blank node predicate" with the property). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const event = (error as { details?: { event?: { code?: string; details?: unknown } } }).details?.event;
  return event
    ? `${error.message} ${event.code ?? ''} ${JSON.stringify(event.details ?? {})}`
    : error.message;
}
