import { L2UnavailableError } from './errors.js';

/** The subset of `fetch` the kit uses; injectable for tests and for runtimes with their own. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface L2Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or `undefined` when the body is empty or not JSON. */
  json: unknown;
}

export interface CallOptions {
  fetch: FetchLike;
  timeoutMs: number;
  maxBytes: number;
}

/**
 * One request to L2: a deadline over the whole exchange (connect, headers and body), no redirects followed, a cap
 * on the body. Every failure to get a complete answer is an {@link L2UnavailableError} — the caller fails closed.
 */
export async function callL2(url: string | URL, init: RequestInit, options: CallOptions): Promise<L2Answer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await options.fetch(url, { ...init, redirect: 'manual', signal });
    text = await readCapped(response, options.maxBytes);
  } catch (error) {
    if (signal.aborted) throw new L2UnavailableError('timeout', `no answer within ${options.timeoutMs} ms`);
    if (error instanceof L2UnavailableError) throw error;
    throw new L2UnavailableError('network', describe(error));
  }
  let json: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, headers: response.headers, json };
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new L2UnavailableError('malformed', `an answer of ${declared} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new L2UnavailableError('malformed', `an answer over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.message : 'network error';
}

/** `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; whole seconds from `now`, or `undefined`. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
