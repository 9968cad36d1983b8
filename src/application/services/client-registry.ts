// Rule (API.md §2.5): a client is either an L1 server URL (§2.3) or publishes a Client ID Metadata Document at its
// client_id. Which one is found by looking the client_id up — only client_ids that could be documents are — and a
// document is kept for its Cache-Control max-age (at most a day); a refusal is never kept, so a fixed document is
// used at once.
import {
  checkClientDocument,
  checkJwks,
  documentLifetimeSeconds,
  isClientDocumentId,
  MAX_CLIENT_DOCUMENT_BYTES,
  MAX_JWKS_BYTES,
  type ClientDocument,
  type ClientJwk,
} from '../../domain/client-document.js';
import { normaliseL1Server, type L1ServerUrl } from '../../domain/l1-server.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { BoundedCache, CacheFactory } from '../ports/bounded-cache.js';
import type { ClientDocumentSource } from '../ports/client-document-source.js';
import type { Clock } from '../ports/clock.js';

/** A client as L2 knows it. */
export type KnownClient =
  | { readonly kind: 'url'; readonly clientId: L1ServerUrl }
  | { readonly kind: 'document'; readonly clientId: L1ServerUrl; readonly document: ClientDocument };

/** Lookups kept at once: each is a few kilobytes at most. */
const KEPT_LOOKUPS = 1_000;

interface Kept {
  readonly client: KnownClient;
  readonly until: number;
}

export class ClientRegistry {
  private readonly kept: BoundedCache<string, Kept>;
  private readonly keys: BoundedCache<string, { keys: readonly ClientJwk[]; until: number }>;

  constructor(
    private readonly source: ClientDocumentSource,
    private readonly clock: Clock,
    caches: CacheFactory,
    /** L1_ALLOW_PRIVATE: whether `http` client_ids on loopback are looked up too. */
    private readonly allowPrivate: boolean,
  ) {
    this.kept = caches.create({ max: KEPT_LOOKUPS });
    this.keys = caches.create({ max: KEPT_LOOKUPS });
  }

  /** The client `clientId` names, or why it cannot be one (a bad URL, a document refused). */
  async resolve(clientId: string): Promise<Result<KnownClient, string>> {
    const normalised = normaliseL1Server(clientId);
    if (!normalised.ok) return err('client_id must be a URL: an L1 server or a client metadata document.');
    if (!isClientDocumentId(clientId, this.allowPrivate))
      return ok({ kind: 'url', clientId: normalised.value });
    const now = this.clock.now().getTime();
    const kept = this.kept.get(clientId);
    if (kept && kept.until > now) return ok(kept.client);

    const fetched = await this.source.fetchJson(clientId, MAX_CLIENT_DOCUMENT_BYTES);
    if (fetched.kind === 'refused')
      return err(`The client metadata document was refused: ${fetched.reason}.`);
    let client: KnownClient;
    if (fetched.kind === 'absent') {
      // Not a document: an L1 server URL client — kept as a document would be (a 404's own max-age), so that an L1
      // server whose URL has a path is not fetched at every introspection that names it.
      client = { kind: 'url', clientId: normalised.value };
    } else {
      const checked = checkClientDocument(normalised.value, fetched.value, this.allowPrivate);
      if (!checked.ok) return err(`The client metadata document was refused: ${checked.error}.`);
      client = { kind: 'document', clientId: normalised.value, document: checked.value };
    }
    const lifetime = documentLifetimeSeconds(fetched.cacheControl);
    if (lifetime > 0) this.kept.set(clientId, { client, until: now + lifetime * 1000 });
    return ok(client);
  }

  /** The keys a private_key_jwt client signs with: its `jwks`, or its `jwks_uri` fetched (kept as the document is). */
  async keysOf(document: ClientDocument): Promise<Result<readonly ClientJwk[], string>> {
    if (document.jwks !== null) return ok(document.jwks);
    const uri = document.jwksUri;
    if (uri === null) return err('The client document publishes no keys.');
    const now = this.clock.now().getTime();
    const kept = this.keys.get(uri);
    if (kept && kept.until > now) return ok(kept.keys);
    const fetched = await this.source.fetchJson(uri, MAX_JWKS_BYTES);
    if (fetched.kind !== 'json')
      return err(
        `The client's jwks_uri was refused: ${fetched.kind === 'absent' ? 'not found' : fetched.reason}.`,
      );
    const keys = checkJwks(fetched.value);
    if (!keys.ok) return err(`The client's jwks_uri was refused: ${keys.error}.`);
    const lifetime = documentLifetimeSeconds(fetched.cacheControl);
    if (lifetime > 0) this.keys.set(uri, { keys: keys.value, until: now + lifetime * 1000 });
    return ok(keys.value);
  }
}
