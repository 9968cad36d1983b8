/** What fetching a client's document (or its `jwks_uri`) found. */
export type FetchedClientDocument =
  /** `404` or `410`: there is no document at that URL (with the answer's `Cache-Control`). */
  | { readonly kind: 'absent'; readonly cacheControl: string | null }
  /** `200`, `application/json`, within the cap, valid JSON: its value and its `Cache-Control`, unchecked. */
  | { readonly kind: 'json'; readonly value: unknown; readonly cacheControl: string | null }
  /** Anything else: a redirect, another status, a timeout, another type, a longer body, invalid JSON, a refused address. */
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Fetches Client ID Metadata Documents and JWK Sets (API.md §2.5) under L2's outbound rules: `GET` of exactly that
 * URL with `Accept: application/json`, no credentials, no redirects followed, a 5 s deadline, the body capped at
 * `maxBytes`, to addresses the destination policy allows (checked on the address connected to). Never throws for
 * what the other server does.
 */
export interface ClientDocumentSource {
  fetchJson(url: string, maxBytes: number): Promise<FetchedClientDocument>;
}
