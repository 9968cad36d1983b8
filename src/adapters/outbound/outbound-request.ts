import type { IncomingHttpHeaders } from 'node:http';
import type { Agent, Dispatcher, request as UndiciRequest } from 'undici';
import type { DeliveryOutcome } from '../../application/ports/delivery-outcome.js';
import type { IpDestinationPolicy } from './ip-destination-policy.js';
import { canParseUrl } from '../../domain/url-parse.js';

/** An answer's media type, lower-case, without parameters. */
export const mediaType = (headers: IncomingHttpHeaders): string =>
  String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/** Every outbound request gives up after this long, answer body included. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
/** The most of an answer body read (a fetched document); more fails the request. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
/**
 * How long a fetch (a key, an actor) may take to connect. A live server connects in well under a second; a flood
 * of key ids naming hosts that drop the connection attempt must not hold fetch slots for the whole 10 s.
 */
export const FETCH_CONNECT_TIMEOUT_MS = 3_000;

export interface OutboundRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The most of the answer's body read; more fails the request (a POST whose answer is only a status: `post`). */
  readonly maxResponseBytes: number;
  /** Ends the request early (a deadline shared by several requests); the 10 s timeout applies regardless. */
  readonly signal?: AbortSignal;
}

/** A POST whose answer matters only by its status (a delivery, a notice). */
export interface OutboundPost {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The most of an answer to a POST read past its status (and dropped) before its connection is closed instead. */
const MAX_DISCARDED_BYTES = 64 * 1024;

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
    /** The system's error code for a network failure (`ECONNREFUSED`, `ENOTFOUND`, …), when there is one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'OutboundFailure';
  }
}

/** Error codes undici gives for a request that ran out of time. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Sends requests with undici (Node's own HTTP client library, about half the CPU of node:http per request — what
 * fan-out to thousands of inboxes spends its time on) through one Agent whose connections resolve names with the
 * destination policy's `lookup`, so the SSRF check runs on the address actually connected to. Connections are kept
 * alive per origin (a delivery to a busy inbox reuses its socket). Redirects are never followed here.
 */
export class OutboundHttp {
  /**
   * The client, loaded on the first request: a process that never sends anything never pays for it. `agent` posts
   * deliveries and notices; `fetchAgent` fetches documents, with a short connect timeout.
   */
  private client: Promise<{ agent: Agent; fetchAgent: Agent; request: typeof UndiciRequest }> | null = null;

  constructor(
    readonly policy: IpDestinationPolicy,
    readonly userAgent: string,
    private readonly timeoutMs = OUTBOUND_TIMEOUT_MS,
  ) {}

  private undici() {
    const lookup = this.policy.lookup ? { lookup: this.policy.lookup } : {};
    this.client ??= import('undici').then(({ Agent, request }) => ({
      // As many connections per origin as deliveries may run at once to it, all kept for the next ones.
      agent: new Agent({
        connections: 32,
        keepAliveTimeout: 30_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        connect: { timeout: this.timeoutMs, ...lookup },
      }),
      fetchAgent: new Agent({
        connections: 4,
        keepAliveTimeout: 30_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        connect: { timeout: Math.min(FETCH_CONNECT_TIMEOUT_MS, this.timeoutMs), ...lookup },
      }),
      request,
    }));
    return this.client;
  }

  /**
   * Answers with the status, headers and (up to the cap) the body; rejects with an {@link OutboundFailure}. This is
   * the path of document fetches (keys, actors): it connects with the short fetch timeout.
   */
  async send(request: OutboundRequest): Promise<OutboundResponse> {
    const target = await this.allowed(request.url);
    // One deadline for the whole exchange, answer body included (undici's own timeouts are per phase).
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const { fetchAgent, request: undiciRequest } = await this.undici();
    try {
      const response = await undiciRequest(target, {
        method: request.method,
        headers: { ...request.headers, 'user-agent': this.userAgent },
        ...(request.body === undefined ? {} : { body: request.body }),
        dispatcher: fetchAgent,
        signal,
      });
      const { statusCode: status, headers } = response;
      return { status, headers: headers as IncomingHttpHeaders, body: await readCapped(response, request) };
    } catch (error) {
      throw failureOf(error as NodeJS.ErrnoException, signal.aborted);
    }
  }

  /**
   * POSTs and answers with the status; the answer's body is dropped unread. Rejects with an {@link OutboundFailure}
   * when no status came back. This is the path of every delivery and notice, so it skips what `send` pays for a
   * body it keeps: undici's dispatcher is driven directly (no response stream, no promise per phase) and the
   * deadline is one timer, not an AbortSignal.
   */
  async post(request: OutboundPost): Promise<number> {
    const target = await this.allowed(request.url);
    const { agent } = await this.undici();
    return new Promise<number>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | null = null;
      let timedOut = false;
      let status = 0;
      let discarded = 0;
      /**
       * Once a final status has come, it is the answer, whatever then happens to the body: a peer that said 202
       * has the activity, and sending it again would not make its body end. The connection is closed instead of
       * kept when the body did not end well (or is too long to read through).
       */
      const settle = (error: Error | null) => {
        clearTimeout(timer);
        if (status >= 200) resolve(status);
        else reject(failureOf((error ?? new Error('no answer')) as NodeJS.ErrnoException, timedOut));
      };
      const stop = (reason: OutboundFailure) => {
        settle(reason);
        controller?.abort(reason);
      };
      // One deadline for the whole exchange (undici's own timeouts are per phase). Before the request has reached
      // a connection there is nothing to abort yet: it is aborted as soon as it does.
      const timer = setTimeout(() => {
        timedOut = true;
        stop(new OutboundFailure('timeout', 'timed out'));
      }, this.timeoutMs);
      agent.dispatch(
        {
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers: { ...request.headers, 'user-agent': this.userAgent },
          body: request.body,
        },
        {
          onRequestStart: (started) => {
            controller = started;
            if (timedOut) started.abort(new OutboundFailure('timeout', 'timed out'));
          },
          onResponseStart: (_, statusCode) => {
            status = statusCode;
          },
          onResponseData: (_, chunk) => {
            discarded += chunk.length;
            if (discarded > MAX_DISCARDED_BYTES)
              stop(new OutboundFailure('too_large', 'the answer is too long to read through'));
          },
          onResponseEnd: () => settle(null),
          onResponseError: (_, error) => settle(error),
        },
      );
    });
  }

  /** The URL, once the destination rules allow it (a literal address is checked here, a name at connect time). */
  private async allowed(url: string): Promise<URL> {
    if (!canParseUrl(url)) throw new OutboundFailure('refused', 'not a valid URL');
    const refusal = await this.policy.check(url);
    if (refusal) throw new OutboundFailure('refused', refusal);
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new OutboundFailure('refused', `${target.protocol} is not http(s)`);
    return target;
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

  /** Closes kept-alive connections (at shutdown). */
  close(): void {
    void this.client
      ?.then(({ agent, fetchAgent }) => Promise.all([agent.destroy(), fetchAgent.destroy()]))
      .catch(() => {});
  }
}

/** The answer body, failing once it passes `maxResponseBytes` (declared or read). */
async function readCapped(response: Dispatcher.ResponseData, request: OutboundRequest): Promise<Buffer> {
  const tooLarge = () =>
    new OutboundFailure('too_large', `the answer is larger than ${request.maxResponseBytes} bytes`);
  const declared = Number(response.headers['content-length'] ?? '0');
  if (declared > request.maxResponseBytes) {
    response.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > request.maxResponseBytes) {
      response.body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What went wrong, as an {@link OutboundFailure}: a refused destination, a timeout, or a network failure. */
function failureOf(error: NodeJS.ErrnoException, timedOut: boolean): OutboundFailure {
  if (error instanceof OutboundFailure) return error;
  const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
  const code = error.code ?? cause?.code;
  if (code === 'EREFUSED_PRIVATE') return new OutboundFailure('refused', (cause ?? error).message);
  if (timedOut || error.name === 'AbortError' || (code !== undefined && TIMEOUT_CODES.has(code)))
    return new OutboundFailure('timeout', 'timed out');
  return new OutboundFailure('network', error.message, code);
}
