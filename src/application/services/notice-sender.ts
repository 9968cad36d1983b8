import { logoutTokenClaims } from '../../domain/logout-token.js';
import type { RevocationNotice } from '../../domain/revocation.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryOutcome } from '../ports/delivery-outcome.js';
import type { L1Notifier } from '../ports/l1-notifier.js';
import type { NoticeSigner } from '../ports/notice-signer.js';

/**
 * Sends one attempt of a revocation notice with its logout token (API.md §2.4), signed now: a token signed when the
 * notice was queued would have expired by the retries of the next hours, and a rotated key takes effect at once.
 */
export class NoticeSender {
  constructor(
    private readonly notifier: L1Notifier,
    private readonly signer: NoticeSigner,
    private readonly clock: Clock,
  ) {}

  async send(notice: RevocationNotice): Promise<DeliveryOutcome> {
    const logoutToken = await this.signer.sign(logoutTokenClaims(notice, this.clock.now()));
    return this.notifier.notify(notice, logoutToken);
  }
}
