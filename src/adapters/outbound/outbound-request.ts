import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { DeliveryOutcome } from '../../application/ports/delivery-outcome.js';
import type { IpDestinationPolicy } from './ip-destination-policy.js';

/** Every outbound request gives up after this long, answer body included. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
/** The most of an answer body read (a fetched document); more fails the request. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface OutboundRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** 0 discards the answer body unread (only the status matters). */
  readonly maxResponseBytes: number;
  /** Ends the request early (a deadline shared by several requests); the 10 s timeout applies regardless. */
  readonly signal?: AbortSignal;
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Why a request got no answer; `refused` is final (the destination is forbidden), the others may pass. */
export class OutboundFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'timeout' | 'network' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundFailure';
  }
}

/**
 * Sends requests with node:http — not fetch, whose agent ignores a custom `lookup`, so the SSRF check could not run
 * on the resolved address. Connections are kept alive per host (a delivery to a busy inbox reuses its socket); a
 * name is checked on the address it resolves to each time a connection is made. Redirects are never followed here.
 */
export class OutboundHttp {
  // As many sockets per host as deliveries may run at once to it, all kept for the next ones.
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 32, maxFreeSockets: 32 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 32, maxFreeSockets: 32 }),
  };

  constructor(
    readonly policy: IpDestinationPolicy,
    readonly userAgent: string,
    private readonly timeoutMs = OUTBOUND_TIMEOUT_MS,
  ) {}

  /** Answers with the status and (up to the cap) the body; rejects with an {@link OutboundFailure}. */
  async send(request: OutboundRequest): Promise<OutboundResponse> {
    if (!URL.canParse(request.url)) throw new OutboundFailure('refused', 'not a valid URL');
    const refusal = await this.policy.check(request.url);
    if (refusal) throw new OutboundFailure('refused', refusal);
    const target = new URL(request.url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new OutboundFailure('refused', `${target.protocol} is not http(s)`);
    const transport = target.protocol === 'https:' ? https : http;
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    return new Promise((resolve, reject) => {
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
      const fail = (error: NodeJS.ErrnoException) =>
        reject(
          error instanceof OutboundFailure
            ? error
            : error.code === 'EREFUSED_PRIVATE'
              ? new OutboundFailure('refused', error.message)
              : signal.aborted || error.name === 'AbortError'
                ? new OutboundFailure('timeout', 'timed out')
                : new OutboundFailure('network', error.message),
        );
      const outgoing = transport.request(
        target,
        {
          method: request.method,
          headers: {
            ...request.headers,
            'user-agent': this.userAgent,
            ...(body ? { 'content-length': String(body.length) } : {}),
          },
          lookup: this.policy.lookup,
          agent: this.agents[target.protocol as 'http:' | 'https:'],
          signal,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (request.maxResponseBytes === 0) {
            response.resume();
            resolve({ status, headers: response.headers, body: Buffer.alloc(0) });
            return;
          }
          const declared = Number(response.headers['content-length'] ?? '0');
          if (declared > request.maxResponseBytes) {
            response.destroy();
            fail(
              new OutboundFailure('too_large', `the answer is larger than ${request.maxResponseBytes} bytes`),
            );
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > request.maxResponseBytes) {
              response.destroy(
                new OutboundFailure(
                  'too_large',
                  `the answer is larger than ${request.maxResponseBytes} bytes`,
                ),
              );
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () =>
            resolve({ status, headers: response.headers, body: Buffer.concat(chunks) }),
          );
          response.on('error', fail);
        },
      );
      outgoing.on('error', fail);
      outgoing.end(body);
    });
  }

  /**
   * The outcome of an answered POST: 2xx delivered; 5xx, 408 and 429 (and the `alsoRetried` statuses) worth
   * another try; any other answer — a permanent 4xx, or a redirect, which is never followed — is final, so a
   * destination that refuses for good costs one request, not 24 hours of them.
   */
  static outcomeOfStatus(status: number, alsoRetried: readonly number[] = []): DeliveryOutcome {
    if (status >= 200 && status < 300) return { kind: 'delivered' };
    const retry = status >= 500 || status === 408 || status === 429 || alsoRetried.includes(status);
    return retry
      ? { kind: 'failed', reason: `answered ${status}` }
      : { kind: 'refused', reason: `answered ${status}` };
  }

  /** The outcome of a delivery that got no answer: a forbidden destination is final, anything else may pass. */
  static outcomeOf(error: OutboundFailure): DeliveryOutcome {
    return error.kind === 'refused'
      ? { kind: 'refused', reason: error.message }
      : { kind: 'failed', reason: error.message };
  }

  /** Closes idle kept-alive connections (at shutdown). */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
