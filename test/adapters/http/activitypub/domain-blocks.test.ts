// The operator's domain rules over HTTP (API.md §4.3), with real Fedify peers: one on 127.0.0.1 (the domain the
// tests block) and a control peer on 127.0.0.2 (rules ignore ports, so two peers on 127.0.0.1 would be one host).
// The server's PUBLIC_URL is its own address on 127.0.0.1, which no command may block (parseRuleHost refuses it):
// the rule is written through the store here, as `l2 domains block` writes it; the service never judges its own
// origin, so only the peer's is shut out. (The commands themselves: test/composition/domains-cli.test.ts.)
import { expect } from 'chai';
import type { Clock } from '../../../../src/application/ports/clock.js';
import { RULES_SNAPSHOT_MS } from '../../../../src/application/services/federation-policy.js';
import { parseRuleHost, type RuleHost } from '../../../../src/domain/domain-rules.js';
import { client, registerUser } from '../../../support/http.js';
import { FedifyPeer } from '../../../support/fedify-peer.js';
import type { TestServer } from '../../../support/test-server.js';
import { AP_ACCEPT, assetBody, startServer, STORES, type Api } from '../registry/support.js';

const DETAIL = 'this server does not federate with yours';

/** Real time, strictly increasing, that a test can move on (past the delivery worker's one-second rules snapshot). */
class SteppedClock implements Clock {
  offsetMs = 0;
  private last = 0;
  now(): Date {
    this.last = Math.max(Date.now() + this.offsetMs, this.last + 1);
    return new Date(this.last);
  }
}

const ruleHost = (address: string): RuleHost => {
  const parsed = parseRuleHost(address, 'l2.invalid');
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

for (const store of STORES) {
  describe(`domain rules with Fedify peers (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let aliceActor: string;
    let bad: FedifyPeer;
    let good: FedifyPeer;
    let clock: SteppedClock;

    const start = async (env: Record<string, string> = {}) => {
      clock = new SteppedClock();
      server = await startServer(store, { publicUrlIsServer: true, env, override: { clock: () => clock } });
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      aliceActor = `${server.url}/users/alice`;
    };
    const rules = () => server.parts.store.domainRules;
    const followers = async (): Promise<{ totalItems: number; items: string[] }> => {
      const root = await api.get('/users/alice/followers', { headers: { accept: AP_ACCEPT } });
      const page = await api.get('/users/alice/followers?page=true', { headers: { accept: AP_ACCEPT } });
      return { totalItems: root.json.totalItems, items: page.json.orderedItems };
    };
    const follows = async (peer: FedifyPeer) => {
      const response = await peer.send(`${server.url}/users/alice/inbox`, peer.follow(aliceActor));
      expect(response.status, await response.text()).to.equal(202);
      await peer.waitFor((r) => r.body.type === 'Accept');
    };
    const refusals = async (): Promise<number> => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('l2_inbox_refusals_total{reason="domain_blocked"} '));
      return Number(line?.split(' ')[1]);
    };
    const publish = async (name: string) => {
      const response = await api.post('/assets', assetBody(name), { token: alice });
      expect(response.status, response.text).to.equal(201);
    };
    /** Runs the queue (beside the background worker, which it waits for) until no job is pending. */
    const drained = async () => {
      const runner = server.parts.services.jobRunner;
      for (let round = 0; round < 50; round++) {
        if ((await server.parts.store.queueAdministration.stats()).pending === 0) return;
        await runner.runOnce();
        await runner.settled();
      }
      throw new Error('the queue did not drain');
    };
    const dropped = async (): Promise<number> => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return text
        .split('\n')
        .filter((l) => l.startsWith('l2_job_attempts_total{') && l.includes('outcome="dropped"'))
        .reduce((sum, l) => sum + Number(l.split(' ')[1]), 0);
    };
    /** Every job still queued, by the host it goes to. */
    const queuedHosts = async () =>
      (await server.parts.store.queueAdministration.list({ kind: null, limit: 100 }, new Date())).map(
        (job) => (job.lane === null ? null : new URL(job.lane).hostname),
      );

    beforeEach(async () => {
      bad = await FedifyPeer.start();
      good = await FedifyPeer.start({ host: '127.0.0.2' });
    });
    afterEach(async () => {
      await server?.close();
      await bad.close();
      await good.close();
    });

    describe('blocklist mode (the default)', () => {
      beforeEach(async () => {
        await start();
        await follows(bad);
        await follows(good);
      });

      it('answers a blocked domain’s Follow 403 with the fixed detail, signed or not, fetching and storing nothing', async () => {
        await rules().block(ruleHost('127.0.0.1'), new Date());
        const fetchedBefore = bad.actorFetchedBy.length;

        for (const inbox of ['/users/alice/inbox', '/inbox']) {
          const signed = await bad.send(`${server.url}${inbox}`, bad.follow(aliceActor));
          const problem = (await signed.json()) as { code: string; detail: string };
          expect([signed.status, problem.code, problem.detail]).to.deep.equal([403, 'forbidden', DETAIL]);
          const unsigned = await bad.send(`${server.url}${inbox}`, bad.follow(aliceActor), {
            unsigned: true,
          });
          expect([unsigned.status, ((await unsigned.json()) as { detail: string }).detail]).to.deep.equal([
            403,
            DETAIL,
          ]);
        }

        expect(bad.actorFetchedBy.length, 'no key or actor fetched').to.equal(fetchedBefore);
        expect(await followers()).to.deep.equal({ totalItems: 1, items: [good.actorId] });
        expect(await refusals()).to.equal(4);
      });

      it('removes its followers at once, and the next asset reaches the control peer only', async () => {
        const attemptsBefore = bad.attempts;

        const outcome = await rules().block(ruleHost('127.0.0.1'), new Date());
        expect(outcome.followersRemoved).to.equal(1);
        expect((await followers()).totalItems).to.equal(1);

        await publish('after-block');
        await good.waitFor((r) => r.body.type === 'Create');
        await drained();
        expect(bad.attempts).to.equal(attemptsBefore);
      });

      it('drops the deliveries already queued for it, and the control peer’s still arrive', async () => {
        bad.answer = 500;
        const attemptsBefore = bad.attempts;
        await publish('before-block');
        await good.waitFor((r) => r.body.type === 'Create');
        await bad.waitForAttempts(attemptsBefore + 1);
        expect(await queuedHosts(), 'the failed delivery waits for its retry').to.include('127.0.0.1');

        const outcome = await rules().block(ruleHost('127.0.0.1'), new Date());

        expect(outcome.jobsDropped).to.equal(1);
        await drained();
        expect(await queuedHosts()).to.deep.equal([]);
      });
    });

    describe('allowlist mode', () => {
      beforeEach(() => start({ FEDERATION_MODE: 'allowlist' }));

      it('takes Follows only from allowed domains a block does not cover', async () => {
        const refused = await bad.send(`${server.url}/users/alice/inbox`, bad.follow(aliceActor));
        expect([refused.status, ((await refused.json()) as { detail: string }).detail]).to.deep.equal([
          403,
          DETAIL,
        ]);
        await rules().allow(ruleHost('127.0.0.2'), new Date());

        await follows(good);

        expect(await followers()).to.deep.equal({ totalItems: 1, items: [good.actorId] });
        expect(await refusals()).to.equal(1);
      });

      it('keeps an unlisted domain’s followers but hides them and sends them nothing, until it is allowed again', async () => {
        await rules().allow(ruleHost('127.0.0.1'), new Date());
        await rules().allow(ruleHost('127.0.0.2'), new Date());
        await follows(bad);
        await follows(good);
        expect((await followers()).totalItems).to.equal(2);

        await rules().disallow(ruleHost('127.0.0.1'));
        // Past the worker's snapshot of the rules (at most a second old: ADR 21).
        clock.offsetMs += RULES_SNAPSHOT_MS;
        const attemptsBefore = bad.attempts;

        expect(await followers()).to.deep.equal({ totalItems: 1, items: [good.actorId] });
        await publish('while-unlisted');
        await good.waitFor((r) => r.body.type === 'Create');
        await drained();
        expect(await queuedHosts()).to.deep.equal([]);
        expect(bad.attempts, 'nothing sent to the unlisted domain').to.equal(attemptsBefore);
        expect(await dropped(), 'its delivery dropped unsent').to.equal(1);

        await rules().allow(ruleHost('127.0.0.1'), new Date());
        expect((await followers()).totalItems).to.equal(2);
      });

      it('leaves public reads public', async () => {
        const actor = await fetch(aliceActor, { headers: { accept: AP_ACCEPT } });
        expect(actor.status).to.equal(200);
      });
    });
  });
}
