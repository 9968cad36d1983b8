// What the use-cases rely on from a FederationClient, held against the real HTTP client and against the scripted
// fake the use-case tests use, so that a fake cannot quietly promise what the real client never does.
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import type { SigningKey } from '../../src/application/ports/activity-signer.js';
import type { FederationClient } from '../../src/application/ports/federation-client.js';

/** How a peer's inbox takes a delivery: the real peer answers 202, 503 or 410. */
export type InboxAnswer = 'accepts' | 'fails_for_now' | 'refuses_for_good';

/** What a peer's actor document says; a field left out is written as usual (its own URL, an inbox on its server). */
export interface ActorScript {
  /** Another URL than the one the actor is served at: the document is somebody else's. */
  readonly idElsewhere?: boolean;
  readonly withoutInbox?: boolean;
  readonly sharedInbox?: boolean;
  /** Another `type` than Person (a Note: no actor). */
  readonly type?: string;
  readonly alsoKnownAs?: readonly string[];
  readonly movedTo?: string;
}

/**
 * A peer server as the contract scripts it. Each call sets up one URL on it and returns that URL: the real client's
 * harness serves it over HTTP on 127.0.0.1, a fake's harness scripts the fake to stand for the same answer.
 */
export interface ScriptedPeer {
  inbox(answer: InboxAnswer): string;
  /** The documents delivered to `inbox` so far, as the peer read them. */
  deliveredTo(inbox: string): unknown[];
  actor(script?: ActorScript): string;
  /** Serves another document at an actor URL made before (what its server says now). */
  rescript(id: string, script: ActorScript): void;
  /**
   * An account WebFinger knows on the peer, whose `self` link is `actor` (none at all with null): the user and the
   * host (and port) to ask WebFinger with.
   */
  account(actor: string | null): { readonly user: string; readonly host: string };
  /** An actor URL whose server cannot answer now (503). */
  actorUnavailable(): string;
  /** An actor URL whose server has no such actor (410). */
  actorGone(): string;
}

export interface FederationClientHarness {
  /** A client and its peer, fresh for each test; `close` ends whatever the harness started. */
  open(): Promise<{ client: FederationClient; peer: ScriptedPeer; close(): Promise<void> }>;
}

export function federationClientContract(name: string, harness: FederationClientHarness): void {
  describe(`${name}: FederationClient`, () => {
    let signingKey: SigningKey | undefined;
    /** A real key, made once: the real client signs each delivery with it. */
    const key = (): SigningKey =>
      (signingKey ??= {
        keyId: 'https://l2.example/users/alice#main-key',
        privateKeyPem: generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
      });
    let opened: Awaited<ReturnType<FederationClientHarness['open']>> | undefined;
    beforeEach(async () => {
      opened = await harness.open();
    });
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });
    const client = () => opened!.client;
    const peer = () => opened!.peer;

    const deliveries = [
      ['accepts', 'delivered'],
      ['fails_for_now', 'failed'],
      ['refuses_for_good', 'refused'],
    ] as const;
    for (const [answer, kind] of deliveries) {
      it(`answers ${kind} for an inbox that ${answer.replaceAll('_', ' ')}`, async () => {
        const outcome = await client().deliver(peer().inbox(answer), { type: 'Create' }, key());

        expect(outcome.kind).to.equal(kind);
        if (outcome.kind !== 'delivered') expect(outcome.reason).to.be.a('string').that.is.not.empty;
      });
    }

    it('delivers the document as given to the inbox named, and to no other', async () => {
      const [inbox, other] = [peer().inbox('accepts'), peer().inbox('accepts')];
      const document = { type: 'Create', id: 'https://l2.example/activities/1', object: { name: 'a' } };

      await client().deliver(inbox, document, key());

      expect(peer().deliveredTo(inbox)).to.deep.equal([document]);
      expect(peer().deliveredTo(other)).to.deep.equal([]);
    });

    it('reads an actor: the id asked for, its inbox and its shared inbox', async () => {
      const id = peer().actor({ sharedInbox: true });

      const lookup = await client().fetchActor(id);

      expect(lookup.ok && lookup.actor.id).to.equal(id);
      expect(lookup.ok && lookup.actor.inbox).to.equal(`${id}/inbox`);
      expect(lookup.ok && lookup.actor.sharedInbox).to.equal(`${new URL(id).origin}/inbox`);
    });

    it('gives a shared inbox of null when the actor names none', async () => {
      const lookup = await client().fetchActor(peer().actor());

      expect(lookup.ok && lookup.actor.sharedInbox).to.equal(null);
    });

    const refusals = [
      ['a document that is another actor', { idElsewhere: true }],
      ['an actor without an inbox', { withoutInbox: true }],
    ] as const;
    for (const [what, script] of refusals) {
      it(`refuses ${what}, for good`, async () => {
        const lookup = await client().fetchActor(peer().actor(script));

        expect(lookup.ok).to.equal(false);
        expect(!lookup.ok && lookup.retryable).to.equal(false);
        expect(!lookup.ok && lookup.reason).to.be.a('string').that.is.not.empty;
      });
    }

    it('answers an actor whose server cannot answer now as worth asking again', async () => {
      const lookup = await client().fetchActor(peer().actorUnavailable());

      expect(!lookup.ok && lookup.retryable).to.equal(true);
    });

    it('answers an actor its server does not have as not worth asking again', async () => {
      const lookup = await client().fetchActor(peer().actorGone());

      expect(!lookup.ok && lookup.retryable).to.equal(false);
    });

    describe('actors someone names (API.md §4.3)', () => {
      it('looks up an actor with its inboxes, its alsoKnownAs and its movedTo', async () => {
        const aliases = ['https://old.example/users/bob', 'https://older.example/@bob'];
        const id = peer().actor({
          sharedInbox: true,
          alsoKnownAs: aliases,
          movedTo: 'https://new.example/u/b',
        });

        const lookup = await client().lookUpActor(id, { fresh: true });

        expect(lookup).to.deep.equal({
          ok: true,
          actor: {
            id,
            inbox: `${id}/inbox`,
            sharedInbox: `${new URL(id).origin}/inbox`,
            alsoKnownAs: aliases,
            movedTo: 'https://new.example/u/b',
          },
        });
      });

      it('gives an actor that names no alias and no move an empty alsoKnownAs and a null movedTo', async () => {
        const lookup = await client().lookUpActor(peer().actor(), { fresh: true });

        expect(lookup.ok && lookup.actor.alsoKnownAs).to.deep.equal([]);
        expect(lookup.ok && lookup.actor.movedTo).to.equal(null);
      });

      it('reads the actor afresh, never from a copy an earlier lookup kept', async () => {
        const id = peer().actor();
        expect((await client().fetchActor(id)).ok).to.equal(true);
        peer().rescript(id, { movedTo: 'https://new.example/u/b' });

        const lookup = await client().lookUpActor(id, { fresh: true });

        expect(lookup.ok && lookup.actor.movedTo).to.equal('https://new.example/u/b');
      });

      const notActors = [
        ['a document that is another actor', { idElsewhere: true }],
        ['an actor without an inbox', { withoutInbox: true }],
        ['a document that is no actor', { type: 'Note' }],
      ] as const;
      for (const [what, script] of notActors) {
        it(`refuses to look up ${what}, for good`, async () => {
          const lookup = await client().lookUpActor(peer().actor(script), { fresh: true });

          expect(lookup.ok).to.equal(false);
          expect(!lookup.ok && lookup.retryable).to.equal(false);
          expect(!lookup.ok && lookup.reason).to.be.a('string').that.is.not.empty;
        });
      }

      it('answers a lookup of an actor whose server cannot answer now as worth asking again', async () => {
        const lookup = await client().lookUpActor(peer().actorUnavailable(), { fresh: true });

        expect(!lookup.ok && lookup.retryable).to.equal(true);
      });

      it('finds the actor of an account by WebFinger', async () => {
        const id = peer().actor();
        const { user, host } = peer().account(id);

        expect(await client().webfinger(user, host)).to.deep.equal({ ok: true, self: id });
      });

      it('refuses, for good, an account WebFinger does not know and one with no ActivityPub actor', async () => {
        const { host } = peer().account(peer().actor());
        const selfless = peer().account(null);

        for (const user of ['nobody', selfless.user]) {
          const lookup = await client().webfinger(user, host);
          expect(lookup.ok).to.equal(false);
          expect(!lookup.ok && lookup.retryable).to.equal(false);
        }
      });
    });
  });
}
