// Fake fediverse servers for the fan-out scenario: N HTTP servers on 127.0.0.1, each with a shared inbox. Live ones
// answer 202 and note which activities arrived; hanging ones read the request and never answer. Runs in its own
// process so that its work is not counted against the service's event loop.
// Usage: node --import tsx bench/inbox-hosts.ts '{"hosts":500,"hanging":250,"activities":20}'
// Prints {"ports":[…]} once listening, then {"doneAt":<epoch ms>,"deliveries":n} once every live host has every
// activity (idx 0 … activities-1); then waits to be killed.
// With "profile":true the hosts wait for profile Updates (`<actor>#updates/<n>`) instead: each time every live host
// has version n, they print {"version":n,"at":<epoch ms>,"deliveries":<profile Updates received in all>,"bytes":<the size of one>}.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Spec {
  readonly hosts: number;
  /** The first `hanging` hosts never answer. */
  readonly hanging: number;
  readonly activities: number;
  /** Count profile Updates by version instead of activities by idx. */
  readonly profile?: boolean;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const live = spec.hosts - spec.hanging;
/** Per live host: the activity indexes it has received. */
const received = new Map<number, Set<number>>();
let complete = 0;
let deliveries = 0;
let reported = false;

/** Per profile version: the live hosts that have it. */
const versions = new Map<number, Set<number>>();

function noteProfileUpdate(host: number, body: string): void {
  const version = Number(/#updates\/(\d+)"/.exec(body)?.[1] ?? NaN);
  if (!Number.isInteger(version)) return;
  deliveries++;
  const hosts = versions.get(version) ?? new Set<number>();
  versions.set(version, hosts);
  const before = hosts.size;
  hosts.add(host);
  if (before < live && hosts.size === live) {
    const bytes = Buffer.byteLength(body);
    console.log(JSON.stringify({ version, at: Date.now(), deliveries, bytes }));
  }
}

function note(host: number, body: string): void {
  if (spec.profile) return noteProfileUpdate(host, body);
  deliveries++;
  const idx = Number(/\/activities\/(\d+)"/.exec(body)?.[1] ?? NaN);
  if (!Number.isInteger(idx)) return;
  const seen = received.get(host) ?? new Set<number>();
  received.set(host, seen);
  const before = seen.size;
  seen.add(idx);
  if (before < spec.activities && seen.size === spec.activities) complete++;
  if (complete === live && !reported) {
    reported = true;
    console.log(JSON.stringify({ doneAt: Date.now(), deliveries }));
  }
}

const servers: Server[] = [];
for (let host = 0; host < spec.hosts; host++) {
  const hangs = host < spec.hanging;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (hangs) return; // the connection stays open, unanswered, until the client gives up
      note(host, body);
      res.writeHead(202).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  servers.push(server);
}
await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
console.log(JSON.stringify({ ports: servers.map((s) => (s.address() as AddressInfo).port) }));
