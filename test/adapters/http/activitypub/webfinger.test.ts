import { expect } from 'chai';
import { client, registerUser, type HttpResponse } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  BASE,
  expectAp,
  getAs,
  localPath,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

const ALICE_JRD = {
  subject: 'acct:alice@l2.test',
  aliases: [`${BASE}/users/alice`],
  links: [
    { rel: 'self', type: 'application/activity+json', href: `${BASE}/users/alice` },
    { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: `${BASE}/users/alice` },
    // API.md §2.5 (OpenID Connect Discovery §2): where the account signs in.
    { rel: 'http://openid.net/specs/connect/1.0/issuer', href: BASE },
  ],
};

const finger = (api: Api, resource: string, accept = 'application/jrd+json, application/json') =>
  api.get(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, { headers: { accept } });

function expectJrd(response: HttpResponse): unknown {
  expect(response.status, response.text).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^application\/jrd\+json(\s*;\s*charset=utf-8)?$/i);
  expect(response.headers.get('access-control-allow-origin')).to.equal('*');
  return JSON.parse(response.text);
}

function expectStatus(response: HttpResponse, status: number, label: string): void {
  expect(response.status, `${label}: ${response.text}`).to.equal(status);
  expect(response.headers.get('content-type'), label).to.match(/^application\/problem\+json/);
}

for (const store of STORES) {
  describe(`webfinger and host-meta (${store})`, () => {
    let server: TestServer;
    let api: Api;

    before(async () => {
      server = await startServer(store);
      api = client(server.url);
      await registerUser(server.url, 'alice');
      await registerUser(server.url, 'bob');
    });
    after(() => server?.close());

    for (const resource of [
      'acct:alice@l2.test',
      'acct:@alice@l2.test',
      'acct:ALICE@l2.test',
      'acct:Alice@L2.TEST',
      `${BASE}/users/alice`,
    ]) {
      it(`resolves ${resource} to alice's JRD, subject always acct:alice@l2.test`, async () => {
        expect(expectJrd(await finger(api, resource))).to.deep.equal(ALICE_JRD);
      });
    }

    it('answers the same JRD whatever the Accept (Mastodon, Pleroma, Fedify, curl)', async () => {
      for (const accept of [
        'application/jrd+json',
        'application/json',
        'application/jrd+json, application/json, application/xrd+xml;q=0.9',
        '*/*',
      ]) {
        expect(expectJrd(await finger(api, 'acct:alice@l2.test', accept)), accept).to.deep.equal(ALICE_JRD);
      }
      const noAccept = await api.get('/.well-known/webfinger?resource=acct:alice@l2.test');
      expect(expectJrd(noAccept)).to.deep.equal(ALICE_JRD);
    });

    it('resolves each user to their own actor', async () => {
      const jrd = expectJrd(await finger(api, 'acct:bob@l2.test')) as typeof ALICE_JRD;
      expect(jrd.subject).to.equal('acct:bob@l2.test');
      expect(jrd.links[0]!.href).to.equal(`${BASE}/users/bob`);
    });

    it('round trip: the self link fetches an actor whose id is that link and whose preferredUsername fingers back', async () => {
      const jrd = expectJrd(await finger(api, 'acct:alice@l2.test')) as typeof ALICE_JRD;
      const self = jrd.links.find((l) => l.rel === 'self')!;
      const actor = expectAp(await getAs(api, localPath(self.href), AP_ACCEPT));
      expect(actor.id).to.equal(self.href);
      const again = expectJrd(await finger(api, `acct:${actor.preferredUsername}@${new URL(actor.id).host}`));
      expect(again).to.deep.equal(jrd);
    });

    it('answers 400 to a missing resource', async () => {
      expectStatus(await api.get('/.well-known/webfinger'), 400, 'missing');
    });

    for (const resource of [
      '',
      'foo',
      'acct:nobody',
      'acct:',
      'acct:@l2.test',
      'mailto:alice@l2.test',
      'alice@l2.test',
    ]) {
      it(`answers 400 to the malformed resource=${JSON.stringify(resource)}`, async () => {
        expectStatus(await finger(api, resource), 400, resource);
      });
    }

    for (const resource of [
      'acct:nobody@l2.test',
      'acct:alice@other.example',
      'acct:alice@l2.test.evil.example',
      'http://other.example/users/alice',
      `${BASE}/users/nobody`,
      `${BASE}/assets/alice`,
    ]) {
      it(`answers 404 to ${resource}`, async () => {
        const response = await finger(api, resource);
        expectStatus(response, 404, resource);
      });
    }

    for (const resource of [`${BASE}/users/%`, `${BASE}/users/alice%`, `${BASE}/users/%E0%A4%A`]) {
      it(`answers 400 or 404, never 500, to an actor URL with broken percent-encoding: ${resource}`, async () => {
        const response = await finger(api, resource);
        expect(response.status, response.text).to.be.oneOf([400, 404]);
        expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
      });
    }

    it('serves host-meta as XRD whose lrdd template resolves acct:alice@l2.test to the same JRD', async () => {
      const response = await api.get('/.well-known/host-meta', {
        headers: { accept: 'application/xrd+xml, application/xml, text/xml' },
      });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(
        /^application\/xrd\+xml(\s*;\s*charset=utf-8)?$/i,
      );
      expect(response.text).to.match(/^<\?xml version="1\.0" encoding="UTF-8"\?>/);
      expect(response.text).to.include('<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">');
      const link = /<Link\b[^>]*\brel="lrdd"[^>]*>/.exec(response.text);
      expect(link, 'an lrdd Link').to.not.equal(null);
      const template = /\btemplate="([^"]+)"/.exec(link![0])?.[1];
      expect(template).to.be.a('string').and.include('{uri}');
      const decoded = template!.replace(/&amp;/g, '&');
      expect(decoded.startsWith(`${BASE}/`)).to.equal(true);
      const url = decoded.replace('{uri}', encodeURIComponent('acct:alice@l2.test'));
      const jrd = await api.get(localPath(url), { headers: { accept: 'application/jrd+json' } });
      expect(expectJrd(jrd)).to.deep.equal(ALICE_JRD);
    });
  });
}
