import type { DeliveryOutcome } from '../../application/ports/delivery-outcome.js';
import type { L1Notifier } from '../../application/ports/l1-notifier.js';
import { revocationNoticeUrl } from '../../domain/l1-server.js';
import type { RevocationNotice } from '../../domain/revocation.js';
import { OutboundFailure, OutboundHttp } from './outbound-request.js';

/** POSTs revocation notices; any non-2xx answer (a redirect included: none is followed) counts as a failure. */
export class HttpL1Notifier implements L1Notifier {
  constructor(private readonly http: OutboundHttp) {}

  async notify(notice: RevocationNotice): Promise<DeliveryOutcome> {
    try {
      const { status } = await this.http.send({
        method: 'POST',
        url: revocationNoticeUrl(notice.l1Server),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(notice.body),
        maxResponseBytes: 0,
      });
      return status >= 200 && status < 300
        ? { kind: 'delivered' }
        : { kind: 'failed', reason: `answered ${status}` };
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return OutboundHttp.outcomeOf(error);
    }
  }
}
