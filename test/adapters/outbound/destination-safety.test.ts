import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFederationClient } from '../../../src/adapters/outbound/http-federation-client.js';
import { HttpL1Notifier } from '../../../src/adapters/outbound/http-l1-notifier.js';
import {
  IpDestinationPolicy,
  nonPublicReason,
  type ResolveAll,
} from '../../../src/adapters/outbound/ip-destination-policy.js';
import { OutboundFailure, OutboundHttp } from '../../../src/adapters/outbound/outbound-request.js';
import { normaliseL1Server, type L1ServerUrl } from '../../../src/domain/l1-server.js';
import type { Username } from '../../../src/domain/user.js';

/*
 * SSRF rules of API.md §2, proven on the address actually connected to: a "trap" server listens on loopback and
 * counts TCP connections; every refused request must leave it at zero. DNS is stood in for by the policy's
 * `resolve` option (production uses the real resolver), so a name can answer any address.
 */

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const key = { keyId: 'https://l2.example/users/alice#main-key', privateKeyPem: privateKey };

const familyOf = (address: string) => (address.includes(':') ? 6 : 4);

/** A stand-in for DNS: each name answers the addresses given, any other name is not found. */
const dnsOf =
  (answers: Record<string, readonly string[]>): ResolveAll =>
  async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: familyOf(address) }));
  };

type Lookup = (
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** Answers `addresses` without any check, as a lookup does when nothing guards it. */
const answering =
  (addresses: readonly string[]): Lookup =>
  (_hostname, options, callback) =>
    options.all
      ? callback(
          null,
          addresses.map((address) => ({ address, family: familyOf(address) })),
        )
      : callback(null, addresses[0]!, familyOf(addresses[0]!));

/**
 * The production policy, except that `public.example` connects to loopback unchecked: it stands for a public
 * server (the first hop of a redirect), which a test cannot run on a public address.
 */
class PublicExampleOnLoopback extends IpDestinationPolicy {
  constructor(resolve: ResolveAll = dnsOf({})) {
    // public.example's address, as the fetch budgets (which count per address) look it up.
    super(false, (hostname) =>
      hostname === 'public.example'
        ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
        : resolve(hostname),
    );
  }
  override get lookup() {
    const guarded = super.lookup as unknown as Lookup;
    const lookup: Lookup = (hostname, options, callback) =>
      hostname === 'public.example'
        ? answering(['127.0.0.1'])(hostname, options, callback)
        : guarded(hostname, options, callback);
    return lookup as unknown as IpDestinationPolicy['lookup'];
  }
}

/** No guard at all: names connect wherever they resolve. The control showing that the trap can be reached. */
class Unguarded extends IpDestinationPolicy {
  constructor(private readonly addresses: readonly string[]) {
    super(false);
  }
  override get lookup() {
    return answering(this.addresses) as unknown as IpDestinationPolicy['lookup'];
  }
}

interface Trap {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

async function trapOn(host: string): Promise<Trap | null> {
  const trap: Trap = {
    server: createServer((req, res) => {
      trap.requests.push(`${req.method} ${req.url}`);
      req.resume();
      trap.handler(req, res);
    }),
    port: 0,
    connections: 0,
    requests: [],
    handler: (_req, res) => res.writeHead(204).end(),
  };
  trap.server.on('connection', () => trap.connections++);
  const listening = await new Promise<boolean>((resolve) => {
    trap.server.once('error', () => resolve(false));
    trap.server.listen(0, host, () => resolve(true));
  });
  if (!listening) return null;
  trap.port = (trap.server.address() as AddressInfo).port;
  return trap;
}

async function closeTrap(trap: Trap | null): Promise<void> {
  if (!trap) return;
  trap.server.closeAllConnections();
  await new Promise((resolve) => trap.server.close(resolve));
}

const notice = (url: string) => {
  const normalised = normaliseL1Server(url);
  if (!normalised.ok) throw new Error(`not an L1 server URL: ${url}`);
  return {
    l1Server: normalised.value as L1ServerUrl,
    body: {
      token_hash: 'ab'.repeat(32),
      username: 'alice' as Username,
      l2_server: 'https://l2.example',
      expires_at: '2026-12-22T00:00:00.000Z',
    },
  };
};

const clientsOf = (policy: IpDestinationPolicy) => {
  const http = new OutboundHttp(policy, 'L2-test');
  return {
    http,
    notifier: new HttpL1Notifier(http),
    federation: new HttpFederationClient(
      http,
      async () => ({ keyId: 'https://l2.example/actor#main-key', privateKeyPem: privateKey }),
      { now: () => new Date() },
    ),
  };
};

/** Sends a revocation notice, an ActivityPub delivery and an actor fetch to `origin`; all three must be refused. */
async function expectAllRefused(policy: IpDestinationPolicy, origin: string, reason?: RegExp): Promise<void> {
  const { http, notifier, federation } = clientsOf(policy);
  try {
    const noticed = await notifier.notify(notice(origin), 'logout-token');
    expect(noticed.kind, `notice to ${origin}`).to.equal('refused');
    const delivered = await federation.deliver(`${origin}/inbox`, { type: 'Create' }, key);
    expect(delivered.kind, `delivery to ${origin}`).to.equal('refused');
    const fetched = await federation.fetchActor(`${origin}/users/bob`);
    expect(fetched, `fetch of ${origin}`).to.deep.include({ ok: false, retryable: false });
    if (reason) {
      expect(noticed.kind === 'refused' && noticed.reason).to.match(reason);
      expect(delivered.kind === 'refused' && delivered.reason).to.match(reason);
      expect(!fetched.ok && fetched.reason).to.match(reason);
    }
  } finally {
    http.close();
  }
}

/** DNS answers of every non-public class, with the trap that would receive the connection if it were made. */
const NON_PUBLIC_ANSWERS: readonly (readonly [string, string])[] = [
  ['loopback', '127.0.0.1'],
  ['loopback (elsewhere in 127/8)', '127.5.6.7'],
  ['IPv6 loopback', '::1'],
  ['private 10/8', '10.0.0.1'],
  ['private 172.16/12', '172.16.5.4'],
  ['private 192.168/16', '192.168.0.1'],
  ['unique local IPv6', 'fd12:3456::1'],
  ['link-local (cloud metadata)', '169.254.169.254'],
  ['IPv6 link-local', 'fe80::1'],
  ['IPv6 link-local with a zone index', 'fe80::1%eth0'],
  ['CGNAT', '100.64.0.1'],
  ['unspecified', '0.0.0.0'],
  ['unspecified 0/8', '0.1.2.3'],
  ['IPv6 unspecified', '::'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped loopback, hex', '::ffff:7f00:1'],
  ['IPv4-mapped private', '::ffff:10.0.0.1'],
  ['IPv4-mapped link-local', '::ffff:a9fe:a9fe'],
  ['IPv4-translated (SIIT)', '::ffff:0:7f00:1'],
  ['IPv4-compatible loopback', '::127.0.0.1'],
  ['NAT64 loopback', '64:ff9b::7f00:1'],
  ['NAT64 private', '64:ff9b::a00:1'],
  ['local-use NAT64 private', '64:ff9b:1::a00:1'],
  ['6to4 embedding loopback', '2002:7f00:1::1'],
  ['6to4 embedding private', '2002:c0a8:101::1'],
  ['Teredo embedding loopback', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
  ['Teredo embedding private', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
  ['multicast', '224.0.0.1'],
  ['multicast SSDP', '239.255.255.250'],
  ['IPv6 multicast', 'ff02::1'],
  ['broadcast', '255.255.255.255'],
  ['reserved 240/4', '240.0.0.1'],
  ['IPv6 outside 2000::/3', '4000::1'],
  ['IPv6 discard-only', '100::1'],
  ['IPv6 site-local (deprecated)', 'fec0::1'],
];

describe('outbound destination safety (SSRF)', () => {
  let trap4: Trap;
  let trap6: Trap | null;
  /** The trap a connection to `address` would reach: 0.0.0.0 and ::ffff:127.0.0.1 reach 127.0.0.1. */
  const trapFor = (address: string): Trap =>
    (address === '::1' || address === '::') && trap6 ? trap6 : trap4;
  const connections = () => trap4.connections + (trap6?.connections ?? 0);

  beforeEach(async () => {
    trap4 = (await trapOn('127.0.0.1'))!;
    trap6 = await trapOn('::1');
  });
  afterEach(async () => {
    await closeTrap(trap4);
    await closeTrap(trap6);
  });

  describe('DNS answers are checked on the address connected to', () => {
    for (const [kind, address] of NON_PUBLIC_ANSWERS) {
      it(`refuses a name answering ${kind} (${address}) for notices, deliveries and fetches, without connecting`, async () => {
        const origin = `http://trap.example:${trapFor(address).port}`;
        await expectAllRefused(
          new IpDestinationPolicy(false, dnsOf({ 'trap.example': [address] })),
          origin,
          /^destination refused: /,
        );
        expect(connections()).to.equal(0);
      });
    }

    it('refuses a name when any of its answers is non-public, public ones first', async () => {
      const policy = new IpDestinationPolicy(
        false,
        dnsOf({ 'trap.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '127.0.0.1'] }),
      );
      await expectAllRefused(policy, `http://trap.example:${trap4.port}`, /127\.0\.0\.1 is a loopback/);
      expect(connections()).to.equal(0);
    });

    it('refuses a name whose private answer is of the family not asked for', async () => {
      const lookup = new IpDestinationPolicy(false, dnsOf({ 'trap.example': ['93.184.216.34', '::1'] }))
        .lookup as unknown as Lookup;
      const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        lookup('trap.example', { family: 4 }, resolve),
      );
      expect(error?.code).to.equal('EREFUSED_PRIVATE');
    });

    it('resolves through the same guard however net asks (one address, all addresses, one family)', async () => {
      const lookup = new IpDestinationPolicy(
        false,
        dnsOf({ 'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] }),
      ).lookup as unknown as Lookup;
      const ask = (options: { all?: boolean; family?: number }) =>
        new Promise<unknown[]>((resolve) =>
          lookup('public.example', options, (...answer) => resolve(answer)),
        );
      expect(await ask({})).to.deep.equal([null, '93.184.216.34', 4]);
      expect(await ask({ family: 6 })).to.deep.equal([null, '2606:2800:220:1:248:1893:25c8:1946', 6]);
      expect(await ask({ all: true })).to.deep.equal([
        null,
        [
          { address: '93.184.216.34', family: 4 },
          { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
        ],
      ]);
      // An empty list would crash net (it reads the first entry): no address of the family is an error.
      const [error] = (await new Promise<unknown[]>((resolve) =>
        new IpDestinationPolicy(false, dnsOf({ 'v4.example': ['93.184.216.34'] })).lookup!(
          'v4.example',
          { all: true, family: 6 },
          (...answer: unknown[]) => resolve(answer),
        ),
      )) as [NodeJS.ErrnoException];
      expect(error.code).to.equal('ENOTFOUND');
    });

    it('control: the same names do reach the trap when nothing guards the lookup', async () => {
      const reachable = ['127.0.0.1', '0.0.0.0', '::ffff:127.0.0.1', ...(trap6 ? ['::1'] : [])];
      for (const address of reachable) {
        const before = connections();
        const { http, notifier } = clientsOf(new Unguarded([address]));
        const outcome = await notifier.notify(
          notice(`http://trap.example:${trapFor(address).port}`),
          'logout-token',
        );
        http.close();
        expect(outcome, address).to.deep.equal({ kind: 'delivered' });
        expect(connections(), address).to.equal(before + 1);
      }
    });

    it('refuses a single-label name that the system resolver (/etc/hosts) maps to loopback', async function () {
      // Production resolver: single-label names go to getaddrinfo, which reads /etc/hosts.
      const local = readFileSync('/etc/hosts', 'utf8')
        .split('\n')
        .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
        .filter(([address]) => address && nonPublicReason(address)?.includes('loopback'))
        .flatMap(([, ...names]) => names)
        .find((name) => !name.includes('.') && name !== 'localhost');
      if (!local) this.skip();
      await expectAllRefused(
        new IpDestinationPolicy(false),
        `http://${local}:${trap4.port}`,
        /^destination refused: /,
      );
      expect(connections()).to.equal(0);
    });
  });

  describe('literal hosts, in every spelling the URL parser accepts', () => {
    const spellings = (port4: number, port6: number) => [
      `http://0x7f.1:${port4}`,
      `http://017700000001:${port4}`,
      `http://2130706433:${port4}`,
      `http://127.1:${port4}`,
      `http://0177.0.0.1:${port4}`,
      `http://0x7f000001:${port4}`,
      `http://127.0.0.1:${port4}`,
      `http://[::ffff:7f00:1]:${port4}`,
      `http://[::ffff:127.0.0.1]:${port4}`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${port4}`,
      `http://[::127.0.0.1]:${port4}`,
      `http://0:${port4}`,
      `http://0.0.0.0:${port4}`,
      `http://localhost:${port4}`,
      `http://LOCALHOST.:${port4}`,
      `http://trap.localhost:${port4}`,
      `http://[::1]:${port6}`,
      `http://[::]:${port6}`,
      `http://[64:ff9b::7f00:1]:${port4}`,
      `http://[2002:7f00:1::1]:${port4}`,
      `http://10.0.0.1:${port4}`,
      `http://169.254.169.254:${port4}`,
      `http://100.64.0.1:${port4}`,
      `http://224.0.0.1:${port4}`,
      `http://[fe80::1]:${port4}`,
      `http://[fc00::1]:${port4}`,
      `http://[ff02::1]:${port4}`,
    ];
    it('refuses each for notices, deliveries and fetches, before connecting', async () => {
      for (const origin of spellings(trap4.port, trap6?.port ?? trap4.port))
        await expectAllRefused(new IpDestinationPolicy(false), origin);
      expect(connections()).to.equal(0);
    });

    it('answers a URL that does not parse (an IPv6 zone index) with a refusal, not a crash', async () => {
      for (const allowPrivate of [false, true]) {
        const http = new OutboundHttp(new IpDestinationPolicy(allowPrivate), 'L2-test');
        const sent = http.send({
          method: 'GET',
          url: `http://[fe80::1%25lo]:${trap4.port}/`,
          headers: {},
          maxResponseBytes: 1024,
        });
        await sent.then(
          () => expect.fail('sent'),
          (error: unknown) => {
            expect(error).to.be.instanceOf(OutboundFailure);
            expect((error as OutboundFailure).kind).to.equal('refused');
          },
        );
        http.close();
      }
    });

    it('contacts them all when L1_ALLOW_PRIVATE=true', async () => {
      const { http, notifier } = clientsOf(new IpDestinationPolicy(true));
      expect(await notifier.notify(notice(`http://0x7f.1:${trap4.port}`), 'logout-token')).to.deep.equal({
        kind: 'delivered',
      });
      http.close();
      expect(trap4.requests).to.deep.equal(['POST /auth/revoke']);
    });
  });

  describe('redirects', () => {
    let hop: Trap;
    let origin: string;
    beforeEach(async () => {
      hop = (await trapOn('127.0.0.1'))!;
      origin = `http://public.example:${hop.port}`;
    });
    afterEach(() => closeTrap(hop));

    const fetchVia = async (policy: IpDestinationPolicy, url: string) => {
      const { http, federation } = clientsOf(policy);
      try {
        return await federation.fetchDocument(url);
      } finally {
        http.close();
      }
    };

    it('control: a GET follows a redirect to an allowed address (through the checked lookup)', async () => {
      hop.handler = (req, res) =>
        req.url === '/a'
          ? res.writeHead(302, { location: '/b' }).end()
          : res
              .writeHead(200, { 'content-type': 'application/activity+json' })
              .end(JSON.stringify({ id: `${origin}/b` }));
      expect(await fetchVia(new PublicExampleOnLoopback(), `${origin}/a`)).to.deep.include({ ok: true });
      expect(hop.requests).to.deep.equal(['GET /a', 'GET /b']);
    });

    it('never follows a GET redirect to http://127.0.0.1:<port>/: the private server gets no connection', async () => {
      hop.handler = (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${trap4.port}/` }).end();
      expect(await fetchVia(new PublicExampleOnLoopback(), `${origin}/users/bob`)).to.deep.equal({
        ok: false,
        retryable: false,
        reason: '127.0.0.1 is a loopback address',
      });
      expect(hop.requests).to.deep.equal(['GET /users/bob']);
      expect(trap4.connections).to.equal(0);
    });

    it('never follows a GET redirect to a name that resolves to loopback (checked when connecting)', async () => {
      hop.handler = (_req, res) =>
        res.writeHead(301, { location: `http://internal.example:${trap4.port}/` }).end();
      const policy = new PublicExampleOnLoopback(dnsOf({ 'internal.example': ['127.0.0.1'] }));
      expect(await fetchVia(policy, `${origin}/users/bob`)).to.deep.equal({
        ok: false,
        retryable: false,
        reason: 'destination refused: 127.0.0.1 is a loopback address',
      });
      expect(trap4.connections).to.equal(0);
    });

    it('re-checks every hop: allowed hops, then a refused one on the third redirect', async () => {
      hop.handler = (req, res) => {
        const n = Number(req.url!.slice(1));
        res
          .writeHead(307, {
            location: n < 2 ? `/${n + 1}` : `http://metadata.example:${trap4.port}/latest/meta-data`,
          })
          .end();
      };
      const policy = new PublicExampleOnLoopback(dnsOf({ 'metadata.example': ['::ffff:169.254.169.254'] }));
      expect(await fetchVia(policy, `${origin}/0`)).to.deep.include({ ok: false, retryable: false });
      expect(hop.requests).to.deep.equal(['GET /0', 'GET /1', 'GET /2']);
      expect(connections()).to.equal(0);
    });

    it('never follows a GET redirect to any numeric spelling of loopback', async () => {
      for (const location of [
        `http://0x7f.1:${trap4.port}/`,
        `http://017700000001:${trap4.port}/`,
        `http://2130706433:${trap4.port}/`,
        `http://127.1:${trap4.port}/`,
        `http://[::ffff:7f00:1]:${trap4.port}/`,
        `http://0:${trap4.port}/`,
        `http://localhost:${trap4.port}/`,
      ]) {
        hop.handler = (_req, res) => res.writeHead(302, { location }).end();
        expect(await fetchVia(new PublicExampleOnLoopback(), `${origin}/x`), location).to.deep.include({
          ok: false,
          retryable: false,
        });
      }
      expect(connections()).to.equal(0);
    });

    for (const status of [301, 302, 303, 307, 308]) {
      it(`never follows a ${status} answered to a POST (notice or delivery), even to an allowed address`, async () => {
        hop.handler = (_req, res) => res.writeHead(status, { location: `${origin}/elsewhere` }).end();
        const { http, notifier, federation } = clientsOf(new PublicExampleOnLoopback());
        expect((await notifier.notify(notice(origin), 'logout-token')).kind).to.equal('refused');
        expect((await federation.deliver(`${origin}/inbox`, {}, key)).kind).to.equal('refused');
        http.close();
        expect(hop.requests).to.deep.equal(['POST /auth/revoke', 'POST /inbox']);
      });
    }
  });
});
