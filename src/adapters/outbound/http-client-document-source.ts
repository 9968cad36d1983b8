import type {
  ClientDocumentSource,
  FetchedClientDocument,
} from '../../application/ports/client-document-source.js';
import { CLIENT_DOCUMENT_TIMEOUT_MS } from '../../domain/client-document.js';
import { OutboundFailure, type OutboundHttp } from './outbound-request.js';

const header = (value: string | string[] | undefined): string | null =>
  value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;

/**
 * Fetches client metadata documents and JWK Sets (API.md §2.5) through the same outbound client as the L1 notices:
 * the destination policy checks the address connected to (DNS rebinding cannot slip past), redirects are never
 * followed, and the answer body is capped — here with a 5 s deadline of its own.
 */
export class HttpClientDocumentSource implements ClientDocumentSource {
  constructor(private readonly http: OutboundHttp) {}

  async fetchJson(url: string, maxBytes: number): Promise<FetchedClientDocument> {
    let answer;
    try {
      answer = await this.http.send({
        method: 'GET',
        url,
        headers: { accept: 'application/json' },
        maxResponseBytes: maxBytes,
        signal: AbortSignal.timeout(CLIENT_DOCUMENT_TIMEOUT_MS),
      });
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return {
        kind: 'refused',
        reason: error.kind === 'too_large' ? `longer than ${maxBytes} bytes` : error.message,
      };
    }
    const cacheControl = header(answer.headers['cache-control']);
    if (answer.status === 404 || answer.status === 410) return { kind: 'absent', cacheControl };
    if (answer.status !== 200) return { kind: 'refused', reason: `answered ${answer.status}` };
    const type = (header(answer.headers['content-type']) ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return { kind: 'refused', reason: 'not application/json' };
    try {
      return { kind: 'json', value: JSON.parse(answer.body.toString('utf8')) as unknown, cacheControl };
    } catch {
      return { kind: 'refused', reason: 'not valid JSON' };
    }
  }
}
