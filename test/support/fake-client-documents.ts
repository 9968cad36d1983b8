// A real client on an ephemeral 127.0.0.1 port that publishes Client ID Metadata Documents (API.md §2.5): each path
// answers what the test scripts (a document, a redirect, a wrong type, a long body…), every GET is counted, and the
// form-encoded back-channel logout POSTs it receives are kept.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** An object is sent as JSON (content type application/json unless `headers` says otherwise). */
  readonly body?: unknown;
}

export interface ReceivedLogout {
  readonly path: string;
  readonly contentType: string;
  readonly fields: Record<string, string>;
}

export class FakeClientDocuments {
  readonly answers = new Map<string, ScriptedAnswer>();
  readonly fetches: string[] = [];
  readonly logouts: ReceivedLogout[] = [];
  private server: Server | null = null;
  private port = 0;
  private waiters: { count: number; resolve: () => void }[] = [];

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The URL of `path` here. */
  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** Publishes `document` at `path` (JSON, 200), with `client_id` = that URL unless the document says otherwise. */
  publish(path: string, document: Record<string, unknown>, headers: Record<string, string> = {}): string {
    const clientId = this.url(path);
    this.answers.set(path, { body: { client_id: clientId, ...document }, headers });
    return clientId;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** Resolves once `count` back-channel logouts have arrived. */
  waitForLogouts(count: number): Promise<void> {
    if (this.logouts.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      this.logouts.push({
        path: url.pathname,
        contentType: req.headers['content-type'] ?? '',
        fields: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      });
      res.writeHead(200).end();
      this.waiters = this.waiters.filter((w) => {
        if (this.logouts.length >= w.count) w.resolve();
        return this.logouts.length < w.count;
      });
      return;
    }
    this.fetches.push(url.pathname);
    const answer = this.answers.get(url.pathname);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    const body =
      typeof answer.body === 'string' || Buffer.isBuffer(answer.body)
        ? answer.body
        : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers }).end(body);
  }
}
