import { expect } from 'chai';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpL1Notifier } from '../../../src/adapters/outbound/http-l1-notifier.js';
import { OutboundHttp } from '../../../src/adapters/outbound/outbound-request.js';
import {
  IpDestinationPolicy,
  nonPublicReason,
} from '../../../src/adapters/outbound/ip-destination-policy.js';
import { normaliseL1Server, type L1ServerUrl } from '../../../src/domain/l1-server.js';
import type { RevocationNotice } from '../../../src/domain/revocation.js';
import type { Username } from '../../../src/domain/user.js';

/** The notifier posts whatever logout token it is handed: signing it is the NoticeSender's part. */
const LOGOUT_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJ0ZXN0Ijp0cnVlfQ.c2ln';

const notice = (url: string): RevocationNotice => ({
  l1Server: (normaliseL1Server(url) as { value: L1ServerUrl }).value,
  body: {
    token_hash: 'ab'.repeat(32),
    username: 'alice' as Username,
    l2_server: 'https://l2.example',
    expires_at: '2026-12-22T00:00:00.000Z',
  },
});

describe('HTTP L1 notifier', () => {
  let server: Server;
  let url: string;
  let hits: { method?: string; path?: string; body: string }[];
  let answer: (res: ServerResponse) => void;

  beforeEach(async () => {
    hits = [];
    answer = (res) => res.writeHead(204).end();
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hits.push({ method: req.method, path: req.url, body });
        answer(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('POSTs the notice as JSON to <l1_server>/auth/revoke: its legacy fields unchanged, with the logout token', async () => {
    const outcome = await new HttpL1Notifier(
      new OutboundHttp(new IpDestinationPolicy(true), 'L2-test'),
    ).notify(notice(url), LOGOUT_TOKEN);
    expect(outcome).to.deep.equal({ kind: 'delivered' });
    expect(hits).to.have.length(1);
    expect(hits[0]!.method).to.equal('POST');
    expect(hits[0]!.path).to.equal('/auth/revoke');
    expect(JSON.parse(hits[0]!.body)).to.deep.equal({ ...notice(url).body, logout_token: LOGOUT_TOKEN });
  });

  for (const status of [500, 502, 503, 408, 429]) {
    it(`counts a ${status} answer as a failure to retry`, async () => {
      answer = (res) => res.writeHead(status).end();
      const outcome = await new HttpL1Notifier(
        new OutboundHttp(new IpDestinationPolicy(true), 'L2-test'),
      ).notify(notice(url), LOGOUT_TOKEN);
      expect(outcome).to.deep.equal({ kind: 'failed', reason: `answered ${status}` });
    });
  }

  for (const status of [400, 401, 403, 404, 405, 410, 413, 422]) {
    it(`gives up at once on the permanent refusal ${status}`, async () => {
      answer = (res) => res.writeHead(status).end();
      const outcome = await new HttpL1Notifier(
        new OutboundHttp(new IpDestinationPolicy(true), 'L2-test'),
      ).notify(notice(url), LOGOUT_TOKEN);
      expect(outcome).to.deep.equal({ kind: 'refused', reason: `answered ${status}` });
    });
  }

  it('never follows a redirect, and gives the notice up (the L1 server learns of the revocation from verify)', async () => {
    answer = (res) => res.writeHead(307, { location: `${url}/elsewhere` }).end();
    const outcome = await new HttpL1Notifier(
      new OutboundHttp(new IpDestinationPolicy(true), 'L2-test'),
    ).notify(notice(url), LOGOUT_TOKEN);
    expect(outcome.kind).to.equal('refused');
    expect(hits.map((h) => h.path)).to.deep.equal(['/auth/revoke']);
  });

  it('gives up on an attempt that takes longer than its timeout', async () => {
    answer = () => {
      /* never answers */
    };
    const outcome = await new HttpL1Notifier(
      new OutboundHttp(new IpDestinationPolicy(true), 'L2-test', 200),
    ).notify(notice(url), LOGOUT_TOKEN);
    expect(outcome).to.deep.equal({ kind: 'failed', reason: 'timed out' });
  });

  it('refuses a loopback L1 server when private destinations are not allowed, without connecting', async () => {
    const outcome = await new HttpL1Notifier(
      new OutboundHttp(new IpDestinationPolicy(false), 'L2-test'),
    ).notify(notice(url), LOGOUT_TOKEN);
    expect(outcome.kind).to.equal('refused');
    expect(hits).to.have.length(0);
  });

  it('checks names on the address they resolve to, at connect time', async () => {
    const lookup = new IpDestinationPolicy(false).lookup!;
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      (lookup as unknown as (h: string, o: object, cb: (e: NodeJS.ErrnoException | null) => void) => void)(
        'localhost',
        {},
        resolve,
      ),
    );
    expect(error?.code).to.equal('EREFUSED_PRIVATE');
  });

  describe('address classification', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '[::1]',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::127.0.0.1',
    ]) {
      it(`refuses ${address}`, () => expect(nonPublicReason(address)).to.be.a('string'));
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) {
      it(`allows the public address ${address}`, () => expect(nonPublicReason(address)).to.equal(null));
    }
    it('refuses URL spellings that the URL parser turns into loopback', async () => {
      const policy = new IpDestinationPolicy(false);
      for (const spelling of [
        'http://2130706433',
        'http://0x7f.1',
        'http://017700000001',
        'http://127.1',
        'http://localhost',
        'http://[::ffff:127.0.0.1]',
      ]) {
        expect(await policy.check(spelling), spelling).to.be.a('string');
      }
    });
  });
});
