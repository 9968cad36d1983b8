// The use-case tests' federation fake, held to the contract the real HTTP client passes
// (test/adapters/outbound/http-federation-client.test.ts): what a use-case test scripts, a real peer could answer.
import type { DeliveryOutcome } from '../../src/application/ports/delivery-outcome.js';
import {
  federationClientContract,
  type ActorScript,
  type InboxAnswer,
  type ScriptedPeer,
} from '../contract/federation-client.contract.js';
import { ScriptedFederation } from '../support/use-case-kit.js';

const PEER = 'https://peer.example';

/** The outcome a use-case test scripts to stand for each answer (an inbox that accepts needs none). */
const SCRIPTED: Record<Exclude<InboxAnswer, 'accepts'>, DeliveryOutcome> = {
  fails_for_now: { kind: 'failed', reason: 'answered 503' },
  refuses_for_good: { kind: 'refused', reason: 'answered 410' },
};

/** Scripts the fake as a use-case test would, for each situation the contract names. */
class FakePeer implements ScriptedPeer {
  private made = 0;

  constructor(private readonly fake: ScriptedFederation) {}

  inbox(answer: InboxAnswer): string {
    const inbox = `${PEER}/inboxes/${++this.made}`;
    if (answer !== 'accepts') this.fake.outcomes.set(inbox, [SCRIPTED[answer]]);
    return inbox;
  }

  deliveredTo(inbox: string): unknown[] {
    return this.fake.delivered.filter((d) => d.inbox === inbox).map((d) => d.document);
  }

  actor(script: ActorScript = {}): string {
    const id = `${PEER}/actors/${++this.made}`;
    this.rescript(id, script);
    return id;
  }

  rescript(id: string, script: ActorScript): void {
    this.fake.actors.set(id, {
      id: script.idElsewhere ? `${PEER}/actors/someone-else` : id,
      inbox: script.withoutInbox ? null : `${id}/inbox`,
      sharedInbox: script.sharedInbox ? `${PEER}/inbox` : null,
      ...(script.type ? { type: script.type } : {}),
      ...(script.alsoKnownAs ? { alsoKnownAs: script.alsoKnownAs } : {}),
      ...(script.movedTo ? { movedTo: script.movedTo } : {}),
    });
  }

  account(actor: string | null): { user: string; host: string } {
    const user = `user${++this.made}`;
    const host = new URL(PEER).host;
    this.fake.accounts.set(`${user}@${host}`, actor);
    return { user, host };
  }

  actorUnavailable(): string {
    const id = `${PEER}/actors/${++this.made}`;
    this.fake.unavailable.add(id);
    return id;
  }

  actorGone(): string {
    return `${PEER}/actors/${++this.made}`;
  }
}

federationClientContract('ScriptedFederation (the use-case tests’ fake)', {
  async open() {
    const fake = new ScriptedFederation();
    return { client: fake, peer: new FakePeer(fake), close: async () => {} };
  },
});
