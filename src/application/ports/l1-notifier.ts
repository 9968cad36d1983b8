import type { RevocationNotice } from '../../domain/revocation.js';

export type DeliveryOutcome =
  | { readonly kind: 'delivered' }
  /** Worth another try later: network error, timeout, non-2xx answer. */
  | { readonly kind: 'failed'; readonly reason: string }
  /** Never worth retrying: the destination is forbidden (e.g. a private address in production). */
  | { readonly kind: 'refused'; readonly reason: string };

export interface L1Notifier {
  /** POSTs one revocation notice to `<l1Server>/auth/revoke`. Never throws for delivery problems. */
  notify(notice: RevocationNotice): Promise<DeliveryOutcome>;
}
