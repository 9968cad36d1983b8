import type { DeliveryOutcome } from '../../application/ports/delivery-outcome.js';
import type { L1Notifier } from '../../application/ports/l1-notifier.js';
import { revocationNoticeUrl } from '../../domain/l1-server.js';
import type { RevocationNotice } from '../../domain/revocation.js';
import { OutboundFailure, OutboundHttp } from './outbound-request.js';

/**
 * POSTs revocation notices: the legacy fields of API.md §2 with the `logout_token` of §2.4 — or, for a document
 * client's token, the form-encoded `logout_token` alone to its backchannel_logout_uri (§2.5). 5xx, 408 and 429 are retried; a permanent 4xx or a redirect (none is followed) is
 * final: the L1 server will not take the notice, and it still learns of the revocation from /auth/verify.
 */
export class HttpL1Notifier implements L1Notifier {
  constructor(private readonly http: OutboundHttp) {}

  async notify(notice: RevocationNotice, logoutToken: string): Promise<DeliveryOutcome> {
    try {
      const status = await this.http.post(
        notice.backchannelLogoutUri === undefined
          ? {
              url: revocationNoticeUrl(notice.l1Server),
              headers: { 'content-type': 'application/json', accept: 'application/json' },
              body: JSON.stringify({ ...notice.body, logout_token: logoutToken }),
            }
          : // A document client (API.md §2.5): OpenID Connect Back-Channel Logout 1.0 §2.5, the logout token alone.
            {
              url: notice.backchannelLogoutUri,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ logout_token: logoutToken }).toString(),
            },
      );
      return OutboundHttp.outcomeOfStatus(status);
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return OutboundHttp.outcomeOf(error);
    }
  }
}
