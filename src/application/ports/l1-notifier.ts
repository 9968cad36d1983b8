import type { RevocationNotice } from '../../domain/revocation.js';
import type { DeliveryOutcome } from './delivery-outcome.js';

export interface L1Notifier {
  /**
   * POSTs one revocation notice to `<l1Server>/auth/revoke`: its body, with `logoutToken` (signed for this attempt)
   * as `logout_token` — or, when the notice has a `backchannelLogoutUri`, `logout_token=` form-encoded, to it. Any non-2xx answer is a failure worth retrying, a forbidden destination a refusal. Never
   * throws for delivery problems.
   */
  notify(notice: RevocationNotice, logoutToken: string): Promise<DeliveryOutcome>;
}
