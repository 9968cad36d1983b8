import http from 'node:http';
import https from 'node:https';
import type { DeliveryOutcome, L1Notifier } from '../../application/ports/l1-notifier.js';
import { revocationNoticeUrl } from '../../domain/l1-server.js';
import type { RevocationNotice } from '../../domain/revocation.js';
import type { IpDestinationPolicy } from './ip-destination-policy.js';

export const NOTICE_TIMEOUT_MS = 10_000;

/**
 * POSTs revocation notices with node:http — not fetch, whose agent ignores a custom `lookup`, so the SSRF check
 * could not run on the resolved address. Redirects are never followed; any non-2xx answer counts as a failure.
 */
export class HttpL1Notifier implements L1Notifier {
  constructor(
    private readonly policy: IpDestinationPolicy,
    private readonly userAgent: string,
    private readonly timeoutMs = NOTICE_TIMEOUT_MS,
  ) {}

  async notify(notice: RevocationNotice): Promise<DeliveryOutcome> {
    const url = revocationNoticeUrl(notice.l1Server);
    const refusal = await this.policy.check(url);
    if (refusal) return { kind: 'refused', reason: refusal };
    return this.post(url, JSON.stringify(notice.body));
  }

  private post(url: string, body: string): Promise<DeliveryOutcome> {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      const request = transport.request(
        target,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            accept: 'application/json',
            'user-agent': this.userAgent,
          },
          lookup: this.policy.lookup,
          agent: false,
          signal: AbortSignal.timeout(this.timeoutMs),
        },
        (response) => {
          // Only the status matters; the body is discarded without buffering it.
          response.resume();
          const status = response.statusCode ?? 0;
          resolve(
            status >= 200 && status < 300
              ? { kind: 'delivered' }
              : { kind: 'failed', reason: `answered ${status}` },
          );
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        resolve(
          error.code === 'EREFUSED_PRIVATE'
            ? { kind: 'refused', reason: error.message }
            : { kind: 'failed', reason: error.name === 'AbortError' ? 'timed out' : error.message },
        );
      });
      request.end(body);
    });
  }
}
