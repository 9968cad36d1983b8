/** What became of one attempt to deliver something to another server. */
export type DeliveryOutcome =
  | { readonly kind: 'delivered' }
  /** Worth another try later: network error, timeout, an answer that may change (5xx, 408, 429, …). */
  | { readonly kind: 'failed'; readonly reason: string }
  /** Never worth retrying: the destination is forbidden, or it refused for good (a permanent 4xx). */
  | { readonly kind: 'refused'; readonly reason: string };
