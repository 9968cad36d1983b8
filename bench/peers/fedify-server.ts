// A peer for scenario 8: Fedify (the ActivityPub server framework) serving one actor and webfinger, in its own
// process. Prints one JSON line once it listens — {"port", "domain", "username"} — and exits on SIGTERM.
//
// The usual Fedify application: createFederation over its MemoryKvStore, an actor dispatcher, a key-pairs dispatcher
// (one RSA key pair, generated once at start with Fedify's generateCryptoKeyPair), a handle mapper, and the
// inbox, outbox, followers and following routes the actor links to. The actor carries the same fields as L2's
// (src/adapters/http/koa/activitypub/actor-document.ts). Like L2 (PUBLIC_URL), it has a canonical origin of its own,
// so its documents name http://fedify.bench.localhost whatever address the load comes to.
import { createFederation, Endpoints, generateCryptoKeyPair, MemoryKvStore, Person } from '@fedify/fedify';
// Fedify's own Temporal polyfill (its vocabulary's dates are Temporal.Instant; Node 20 has no Temporal).
import { Temporal } from '@js-temporal/polyfill';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

const ORIGIN = 'http://fedify.bench.localhost';
const USERNAME = 'bench_fedify';

const keyPair = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
const published = Temporal.Instant.from(new Date().toISOString());

const federation = createFederation<void>({ kv: new MemoryKvStore(), origin: ORIGIN });

federation
  .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
    if (identifier !== USERNAME) return null;
    const [key] = await ctx.getActorKeyPairs(identifier);
    const id = ctx.getActorUri(identifier);
    return new Person({
      id,
      preferredUsername: identifier,
      name: identifier,
      url: id,
      inbox: ctx.getInboxUri(identifier),
      outbox: ctx.getOutboxUri(identifier),
      followers: ctx.getFollowersUri(identifier),
      following: ctx.getFollowingUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      published,
      manuallyApprovesFollowers: false,
      discoverable: true,
      publicKey: key?.cryptographicKey ?? null,
    });
  })
  .setKeyPairsDispatcher((_ctx, identifier) => (identifier === USERNAME ? [keyPair] : []))
  .mapHandle((_ctx, username) => (username === USERNAME ? USERNAME : null));
federation.setInboxListeners('/users/{identifier}/inbox', '/inbox');
const empty = () => ({ items: [] });
federation.setOutboxDispatcher('/users/{identifier}/outbox', empty);
federation.setFollowersDispatcher('/users/{identifier}/followers', empty);
federation.setFollowingDispatcher('/users/{identifier}/following', empty);

// The usual node:http ↔ fetch bridge (Fedify 1.5 has none for node:http; adapters such as @hono/node-server do the
// same): the request becomes a WHATWG Request, Fedify answers with a Response, written back with its status and
// headers. The body is read whole first (every answer here is a small JSON document), so that it goes out with a
// content-length in one write, as L2's answers do.
function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`), {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const response = await federation.fetch(toRequest(req), { contextData: undefined });
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.end(body);
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
console.log(
  JSON.stringify({
    port: typeof address === 'object' && address ? address.port : 0,
    domain: new URL(ORIGIN).host,
    username: USERNAME,
  }),
);
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
