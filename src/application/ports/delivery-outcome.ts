/** What became of one attempt to deliver something to another server. */
export type DeliveryOutcome =
  | { readonly kind: 'delivered' }
  /** Worth another try later: network error, timeout, an answer that may change (5xx, 408, 429, …). */
  | { readonly kind: 'failed'; readonly reason: string }
  /** Never worth retrying: the destination is forbidden, or it refused for good (a permanent 4xx). */
  | { readonly kind: 'refused'; readonly reason: string }
  /**
   * Not sent, and never to be: L2 no longer federates with the destination's domain (API.md §4.3, a domain rule).
   * The job is done — neither retried nor kept as abandoned.
   */
  | { readonly kind: 'dropped'; readonly reason: string };
