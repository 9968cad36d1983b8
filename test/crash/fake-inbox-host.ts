import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST an inbox host received: where, and what the activity said it was. */
export interface ReceivedDelivery {
  /** The inbox URL it was posted to. */
  readonly inbox: string;
  readonly id: string;
  readonly type: string;
  readonly actor: string;
  /** The object's id (a Tombstone's too). */
  readonly object: string;
  readonly published: string;
  /** What the host answered. */
  readonly status: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A fediverse server on an ephemeral port, for the crash test: every POST to any path is an inbox delivery, recorded
 * (before it is answered, so a delivery the sender completed is always recorded) and answered 202 unless `answer`
 * says otherwise. Signatures are not verified: other tests do that with Fedify.
 */
export class FakeInboxHost {
  readonly received: ReceivedDelivery[] = [];
  /** Decides the status of each delivery (202 when not set). */
  answer: ((delivery: Omit<ReceivedDelivery, 'status'>) => number) | null = null;
  /** Longest time (uniform) a delivery is held before it is answered: widens the window a kill can fall into. */
  maxDelayMs = 0;
  private server: Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
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

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the sender was killed mid-request: nothing was delivered
    }
    if (!req.complete) return;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      body = {};
    }
    const object = body.object;
    const delivery = {
      inbox: new URL(req.url ?? '/', this.url).href,
      id: text(body.id),
      type: text(body.type),
      actor: text(body.actor),
      object: typeof object === 'string' ? object : text((object as { id?: unknown } | null)?.id),
      published: text(body.published),
    };
    if (this.maxDelayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.random() * this.maxDelayMs));
    const status = this.answer ? this.answer(delivery) : 202;
    this.received.push({ ...delivery, status });
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  }
}
