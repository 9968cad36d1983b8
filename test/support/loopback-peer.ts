// A peer server on 127.0.0.1 that answers as a contract scripts it (test/contract/federation-client.contract.ts),
// and the real HTTP federation client pointed at it.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFederationClient } from '../../src/adapters/outbound/http-federation-client.js';
import { IpDestinationPolicy } from '../../src/adapters/outbound/ip-destination-policy.js';
import { OutboundHttp } from '../../src/adapters/outbound/outbound-request.js';
import type {
  ActorScript,
  FederationClientHarness,
  InboxAnswer,
  ScriptedPeer,
} from '../contract/federation-client.contract.js';

/** Allows only 127.0.0.1 and 127.0.0.2 (the test servers), as production allows only public addresses. */
export class LoopbackOnly extends IpDestinationPolicy {
  constructor() {
    super(true);
  }
  override async check(url: string): Promise<string | null> {
    return ['127.0.0.1', '127.0.0.2'].includes(new URL(url).hostname)
      ? null
      : `${new URL(url).hostname} is refused`;
  }
}

const STATUS_OF: Record<InboxAnswer, number> = { accepts: 202, fails_for_now: 503, refuses_for_good: 410 };

type Route = { status: number; document?: unknown; received: unknown[] };

/** One HTTP server whose paths each answer as scripted, and remember what was POSTed to them. */
class LoopbackPeer implements ScriptedPeer {
  private readonly routes = new Map<string, Route>();
  /** WebFinger accounts by user: the `self` link each answers with (none with null). */
  private readonly accounts = new Map<string, string | null>();
  private made = 0;
  private base = '';

  static async start(): Promise<{ peer: LoopbackPeer; server: Server }> {
    const peer = new LoopbackPeer();
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url?.startsWith('/.well-known/webfinger?')) return void peer.finger(req.url, res);
        const route = peer.routes.get(req.url ?? '');
        if (!route) return void res.writeHead(404).end();
        if (req.method === 'POST') route.received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        if (route.document === undefined) return void res.writeHead(route.status).end();
        res
          .writeHead(route.status, { 'content-type': 'application/activity+json' })
          .end(JSON.stringify(route.document));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    peer.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { peer, server };
  }

  inbox(answer: InboxAnswer): string {
    return this.route('inboxes', { status: STATUS_OF[answer] });
  }

  deliveredTo(inbox: string): unknown[] {
    return this.routes.get(new URL(inbox).pathname)?.received ?? [];
  }

  actor(script: ActorScript = {}): string {
    const id = `${this.base}/actors/${++this.made}`;
    this.rescript(id, script);
    return id;
  }

  rescript(id: string, script: ActorScript): void {
    const document = {
      id: script.idElsewhere ? `${this.base}/actors/someone-else` : id,
      type: script.type ?? 'Person',
      ...(script.withoutInbox ? {} : { inbox: `${id}/inbox` }),
      ...(script.sharedInbox ? { endpoints: { sharedInbox: `${this.base}/inbox` } } : {}),
      ...(script.alsoKnownAs ? { alsoKnownAs: script.alsoKnownAs } : {}),
      ...(script.movedTo ? { movedTo: script.movedTo } : {}),
    };
    this.routes.set(new URL(id).pathname, { status: 200, document, received: [] });
  }

  account(actor: string | null): { user: string; host: string } {
    const user = `user${++this.made}`;
    this.accounts.set(user, actor);
    return { user, host: new URL(this.base).host };
  }

  /** A JRD for `acct:<user>@<host>` of an account made here, as Mastodon writes one; 404 for any other. */
  private finger(url: string, res: ServerResponse): void {
    const resource = new URL(url, this.base).searchParams.get('resource') ?? '';
    const acct = /^acct:([^@]+)@(.+)$/.exec(resource);
    const self = acct && acct[2] === new URL(this.base).host ? this.accounts.get(acct[1]!) : undefined;
    if (self === undefined) return void res.writeHead(404).end();
    const links = [
      { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: `${this.base}/@x` },
    ];
    if (self !== null) links.push({ rel: 'self', type: 'application/activity+json', href: self });
    res
      .writeHead(200, { 'content-type': 'application/jrd+json' })
      .end(JSON.stringify({ subject: resource, links }));
  }

  actorUnavailable(): string {
    return this.route('actors', { status: 503 });
  }

  actorGone(): string {
    return this.route('actors', { status: 410 });
  }

  private route(kind: string, answer: { status: number }): string {
    const path = `/${kind}/${++this.made}`;
    this.routes.set(path, { ...answer, received: [] });
    return `${this.base}${path}`;
  }
}

let instanceKeyPem: string | undefined;
/** The service actor's key the client signs its fetches with: made once, RSA keys take a while. */
const instanceKey = (): string =>
  (instanceKeyPem ??= generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString());

/** The real client against a fresh loopback peer. */
export const httpFederationHarness: FederationClientHarness = {
  async open() {
    const { peer, server } = await LoopbackPeer.start();
    const http = new OutboundHttp(new LoopbackOnly(), 'L2-test');
    const client = new HttpFederationClient(
      http,
      async () => ({ keyId: 'https://l2.example/actor#main-key', privateKeyPem: instanceKey() }),
      { now: () => new Date() },
      { httpOnLoopback: true },
    );
    return {
      client,
      peer,
      async close() {
        http.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  },
};
