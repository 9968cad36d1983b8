import { expect } from 'chai';
import { parseActorName, type ActorName } from '../../../src/domain/actor-name.js';
import type { Username } from '../../../src/domain/user.js';
import { aUser, aUsername } from '../../support/builders.js';
import { KIT_L2, KIT_LOOKUPS_PER_USER, useCaseKit } from '../../support/use-case-kit.js';

const PEER = 'https://peer.example';
const BOB = `${PEER}/users/bob`;
const ALICE = 'alice' as Username;

const named = (text: string): ActorName => {
  const name = parseActorName(text);
  if (!name.ok) throw new Error(name.error);
  return name.value;
};

async function setUp() {
  const kit = useCaseKit();
  await kit.store.users.create(aUser({ username: aUsername('alice') }));
  await kit.store.users.create(aUser({ username: aUsername('carol') }));
  kit.federation.actors.set(BOB, {
    id: BOB,
    inbox: `${BOB}/inbox`,
    sharedInbox: `${PEER}/inbox`,
    alsoKnownAs: [`${KIT_L2}/users/alice`],
    movedTo: null,
  });
  kit.federation.accounts.set('bob@peer.example', BOB);
  const resolve = (text: string, path = 'actor') => kit.actorResolution.resolve(ALICE, named(text), path);
  return { kit, resolve };
}

describe('ActorResolution (API.md §4.3 "Resolving an actor someone names")', () => {
  it('resolves a handle by WebFinger and then its actor: two requests, with its aliases and move', async () => {
    const { kit, resolve } = await setUp();

    const resolved = await resolve('@bob@peer.example');

    expect(resolved).to.deep.equal({
      ok: true,
      value: {
        id: BOB,
        inbox: `${BOB}/inbox`,
        sharedInbox: `${PEER}/inbox`,
        alsoKnownAs: [`${KIT_L2}/users/alice`],
        movedTo: null,
        local: null,
      },
    });
    expect(kit.federation.requests).to.deep.equal(['webfinger acct:bob@peer.example', `actor ${BOB}`]);
  });

  it('resolves a URL with one request, and reads it afresh every time', async () => {
    const { kit, resolve } = await setUp();

    expect((await resolve(BOB)).ok).to.equal(true);
    kit.federation.actors.set(BOB, { ...kit.federation.actors.get(BOB)!, movedTo: `${PEER}/users/bob2` });
    const again = await resolve(BOB);

    expect(again.ok && again.value.movedTo).to.equal(`${PEER}/users/bob2`);
    expect(kit.federation.requests).to.deep.equal([`actor ${BOB}`, `actor ${BOB}`]);
  });

  for (const name of [`${KIT_L2}/users/carol`, '@carol@l2.example', 'Carol@l2.example']) {
    it(`resolves ${name}, a user of this L2, without any request`, async () => {
      const { kit, resolve } = await setUp();

      const resolved = await resolve(name);

      expect(resolved).to.deep.equal({
        ok: true,
        value: {
          id: `${KIT_L2}/users/carol`,
          inbox: `${KIT_L2}/users/carol/inbox`,
          sharedInbox: `${KIT_L2}/inbox`,
          alsoKnownAs: [],
          movedTo: null,
          local: 'carol',
        },
      });
      expect(kit.federation.requests).to.deep.equal([]);
    });
  }

  it('resolves a handle whose WebFinger points back at this L2 to the local user, with no actor fetch', async () => {
    const { kit, resolve } = await setUp();
    kit.federation.accounts.set('carol@peer.example', `${KIT_L2}/users/carol`);

    const resolved = await resolve('@carol@peer.example');

    expect(resolved.ok && resolved.value.local).to.equal('carol');
    expect(kit.federation.requests).to.deep.equal(['webfinger acct:carol@peer.example']);
  });

  for (const name of [`${KIT_L2}/users/nobody`, '@nobody@l2.example', `${KIT_L2}/assets/x`]) {
    it(`refuses ${name} on this L2 that is no user, with the path and no request`, async () => {
      const { kit, resolve } = await setUp();

      const resolved = await resolve(name, 'target');

      expect(resolved.ok).to.equal(false);
      expect(!resolved.ok && resolved.error).to.deep.include({ type: 'invalid_request', path: 'target' });
      expect(kit.federation.requests).to.deep.equal([]);
    });
  }

  const failures: [string, (kit: ReturnType<typeof useCaseKit>) => void, string][] = [
    ['an unknown handle', () => {}, '@nobody@peer.example'],
    [
      'a handle with no ActivityPub actor',
      (kit) => kit.federation.accounts.set('x@peer.example', null),
      'x@peer.example',
    ],
    [
      'a URL that is no actor',
      (kit) =>
        kit.federation.actors.set(`${PEER}/notes/1`, {
          id: `${PEER}/notes/1`,
          inbox: null,
          sharedInbox: null,
          type: 'Note',
        }),
      `${PEER}/notes/1`,
    ],
    [
      'a URL serving another actor',
      (kit) =>
        kit.federation.actors.set(`${PEER}/@bob`, { id: BOB, inbox: `${BOB}/inbox`, sharedInbox: null }),
      `${PEER}/@bob`,
    ],
    [
      'a URL whose server cannot answer now',
      (kit) => kit.federation.unavailable.add(`${PEER}/users/down`),
      `${PEER}/users/down`,
    ],
  ];
  for (const [what, script, name] of failures) {
    it(`refuses ${what} with 400 invalid_request, its path and one sentence`, async () => {
      const { kit, resolve } = await setUp();
      script(kit);

      const resolved = await resolve(name, 'also_known_as');

      expect(resolved.ok).to.equal(false);
      const error = !resolved.ok ? resolved.error : null;
      expect(error).to.deep.include({ type: 'invalid_request', path: 'also_known_as' });
      const message = error?.type === 'invalid_request' ? error.message : '';
      expect(message).to.match(/\.$/).and.not.match(/\.\s/);
    });
  }

  it('counts each request towards LOOKUPS_PER_USER and, beyond it, answers rate_limited asking nothing', async () => {
    const { kit, resolve } = await setUp();
    // Two requests per handle: the budget is spent in KIT_LOOKUPS_PER_USER / 2 handles.
    for (let i = 0; i < KIT_LOOKUPS_PER_USER / 2; i++)
      expect((await resolve('@bob@peer.example')).ok).to.equal(true);
    const asked = kit.federation.requests.length;

    const limited = await resolve(BOB);

    expect(limited.ok).to.equal(false);
    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
    expect(
      !limited.ok && limited.error.type === 'rate_limited' && limited.error.retryAfterSeconds,
    ).to.be.within(1, 3600);
    expect(kit.federation.requests).to.have.length(asked);
    expect(asked).to.equal(KIT_LOOKUPS_PER_USER);
    // Names on this L2 cost nothing, and another user has a budget of their own.
    expect((await resolve('@carol@l2.example')).ok).to.equal(true);
    expect((await kit.actorResolution.resolve('carol' as Username, named(BOB), 'actor')).ok).to.equal(true);
  });

  it('stops a handle between its two requests when the budget runs out there: WebFinger asked, the actor not', async () => {
    const { kit, resolve } = await setUp();
    for (let i = 0; i < KIT_LOOKUPS_PER_USER - 1; i++) expect((await resolve(BOB)).ok).to.equal(true);

    const limited = await resolve('@bob@peer.example');

    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
    expect(kit.federation.requests.slice(-2)).to.deep.equal([
      `actor ${BOB}`,
      'webfinger acct:bob@peer.example',
    ]);
  });
});
