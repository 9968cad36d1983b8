import activityStreams from './contexts/activitystreams.json' with { type: 'json' };
import identityV1 from './contexts/identity-v1.json' with { type: 'json' };
import securityV1 from './contexts/security-v1.json' with { type: 'json' };

/** What a jsonld `documentLoader` resolves to. */
export interface LoadedDocument {
  readonly contextUrl: null;
  readonly documentUrl: string;
  readonly document: object;
  /**
   * `static` lets jsonld keep the processed context in its resolved-context cache for the life of the process,
   * so each context is parsed once, not on every canonicalisation.
   */
  readonly tag: 'static';
}

export type DocumentLoader = (url: string) => Promise<LoadedDocument>;

export const AS_CONTEXT_URL = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_V1_CONTEXT_URL = 'https://w3id.org/security/v1';
export const IDENTITY_V1_CONTEXT_URL = 'https://w3id.org/identity/v1';

/** Thrown for any URL that is not one of the bundled contexts: nothing is ever fetched. */
export class UnbundledContextError extends Error {
  constructor(readonly url: string) {
    super(
      `JSON-LD document not bundled: ${url} (only ${AS_CONTEXT_URL}, ${SECURITY_V1_CONTEXT_URL} and ` +
        `${IDENTITY_V1_CONTEXT_URL} are known; nothing is fetched from the network)`,
    );
    this.name = 'UnbundledContextError';
  }
}

/** Each bundled document under its canonical URL, its `http://` form and both forms with a trailing `#`. */
const BUNDLED: ReadonlyMap<string, LoadedDocument> = new Map(
  (
    [
      [AS_CONTEXT_URL, activityStreams],
      [SECURITY_V1_CONTEXT_URL, securityV1],
      [IDENTITY_V1_CONTEXT_URL, identityV1],
    ] as const
  ).flatMap(([url, document]) => {
    deepFreeze(document);
    const plain = url.replace(/^https:/, 'http:');
    return [url, `${url}#`, plain, `${plain}#`].map(
      (alias) => [alias, { contextUrl: null, documentUrl: url, document, tag: 'static' }] as const,
    );
  }),
);

/**
 * A jsonld `documentLoader` that answers only the three bundled contexts (exact URL match, plus the aliases
 * above) and rejects every other URL with an {@link UnbundledContextError}.
 */
export const bundledDocumentLoader: DocumentLoader = async (url) => {
  const loaded = BUNDLED.get(url);
  if (!loaded) throw new UnbundledContextError(url);
  return loaded;
};

/** The documents are shared by every call: frozen, no processor can alter the copy later calls rely on. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
