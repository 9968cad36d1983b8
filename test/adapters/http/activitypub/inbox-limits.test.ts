// What one remote server can make the inbox store and send (issue 23): one Accept waiting per follow however often
// the Follow comes, a Follow budget per actor, and a cap on the Accepts waiting for one host — against a real peer.
import { expect } from 'chai';
import { FedifyPeer } from '../../../support/fedify-peer.js';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import { AP_ACCEPT, startServer } from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('inbox limits', function () {
  let server: TestServer;
  let peer: FedifyPeer;

  async function start(env: Record<string, string> = {}): Promise<void> {
    server = await startServer('sqlite', { publicUrlIsServer: true, env });
    await registerUser(server.url, 'alice');
    await registerUser(server.url, 'bob');
  }
  const actorOf = (user: string) => `${server.url}/users/${user}`;
  const followers = async (user: string): Promise<number> =>
    (await client(server.url).get(`/users/${user}/followers`, { headers: { accept: AP_ACCEPT } })).json
      .totalItems;
  /** A series of the Prometheus text an operator scrapes, e.g. `l2_jobs{kind="document_delivery",state="pending"}`. */
  const metric = async (series: string): Promise<number> => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return Number(line?.split(' ')[1]);
  };

  beforeEach(async () => {
    peer = await FedifyPeer.start();
  });
  afterEach(async () => {
    await server.close();
    await peer.close();
  });

  it('leaves one Accept waiting, of the last Follow, however often a peer whose inbox fails sends it', async () => {
    await start();
    peer.answer = 503;
    const follows = Array.from({ length: 30 }, () => peer.follow(actorOf('alice')));

    for (const follow of follows)
      expect((await peer.send(`${server.url}/inbox`, follow)).status).to.equal(202);

    expect(await metric('l2_jobs{kind="document_delivery",state="pending"}')).to.equal(1);
    expect(await followers('alice')).to.equal(1);
    peer.answer = 202;
    const last = follows.at(-1)?.id;
    await peer.waitFor((r) => r.body.type === 'Accept' && r.body.object.id === last);
  });

  it('answers 429 with Retry-After, storing nothing, to a Follow beyond its actor’s budget', async () => {
    await start({ FOLLOWS_PER_ACTOR: '2' });
    for (let i = 0; i < 2; i++)
      expect((await peer.send(`${server.url}/inbox`, peer.follow(actorOf('alice')))).status).to.equal(202);

    const refused = await peer.send(`${server.url}/inbox`, peer.follow(actorOf('bob')));

    expect(refused.status).to.equal(429);
    expect(refused.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(((await refused.json()) as Json).code).to.equal('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3600);
    expect(await followers('bob')).to.equal(0);
    expect(await metric('l2_inbox_refusals_total{reason="actor_budget"}')).to.equal(1);
  });

  it('answers 429, storing nothing, to a Follow from a host for which PENDING_ACCEPTS_PER_HOST Accepts wait', async () => {
    await start({ PENDING_ACCEPTS_PER_HOST: '1' });
    peer.answer = 503;
    expect((await peer.send(`${server.url}/inbox`, peer.follow(actorOf('alice')))).status).to.equal(202);

    const refused = await peer.send(`${server.url}/inbox`, peer.follow(actorOf('bob')));

    expect(refused.status).to.equal(429);
    expect(((await refused.json()) as Json).code).to.equal('rate_limited');
    expect(refused.headers.get('retry-after')).to.equal('600');
    expect(await followers('bob')).to.equal(0);
    expect(await metric('l2_inbox_refusals_total{reason="lane_full"}')).to.equal(1);
    // The follow already there is repeated freely: it replaces its own Accept.
    expect((await peer.send(`${server.url}/inbox`, peer.follow(actorOf('alice')))).status).to.equal(202);
  });
});
