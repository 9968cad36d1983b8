import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedNotice {
  readonly body: Record<string, unknown>;
  readonly headers: IncomingMessage['headers'];
  /** What L2's /auth/verify said about the token while this notice was being handled (when checked). */
  readonly verifyStatusDuringNotice?: number;
  readonly verifyCodeDuringNotice?: string;
}

/**
 * A real L1 render server on an ephemeral port: receives revocation notices on POST /auth/revoke and attach
 * callbacks on GET /auth/callback. Its answers can be scripted (e.g. 500 twice, then 200).
 */
export class FakeL1Server {
  readonly notices: ReceivedNotice[] = [];
  readonly callbacks: URL[] = [];
  /** How long to hold each notice before answering (a slow L1: overlapping deliveries would show up). */
  noticeDelayMs = 0;
  /** Statuses to answer notices with, in order; when empty, 200. */
  noticeStatuses: number[] = [];
  /** Called while a notice is handled, before answering — e.g. to ask L2 whether the token is revoked yet. */
  onNotice: ((body: Record<string, unknown>) => Promise<{ status: number; code?: string } | void>) | null =
    null;
  private server: Server | null = null;
  private waiters: { count: number; resolve: () => void }[] = [];
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts listening; pass a port to come back on the same URL after `stop()`. */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
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

  /** Resolves once `count` notices have been answered with 2xx… or any status, when `anyStatus`. */
  waitForNotices(count: number): Promise<void> {
    if (this.notices.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/auth/callback') {
      this.callbacks.push(url);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('attached');
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/auth/revoke') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const verdict = this.onNotice ? await this.onNotice(body) : undefined;
    if (this.noticeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.noticeDelayMs));
    const status = this.noticeStatuses.shift() ?? 200;
    this.notices.push({
      body,
      headers: req.headers,
      ...(verdict ? { verifyStatusDuringNotice: verdict.status, verifyCodeDuringNotice: verdict.code } : {}),
    });
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    this.waiters = this.waiters.filter((w) => {
      if (this.notices.length >= w.count) w.resolve();
      return this.notices.length < w.count;
    });
  }
}
