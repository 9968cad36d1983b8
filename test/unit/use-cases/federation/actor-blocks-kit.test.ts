// Blocking through the service as the composition root builds it (the use-case kit): the resolution, the budgets
// and the delivery worker are the production ones, the peers scripted.
import { expect } from 'chai';
import { useCaseKit, KIT_L2 } from '../../../support/use-case-kit.js';
import { registered, type Kit } from '../accounts/account-fixtures.js';

const BOB = 'https://peer.example/users/bob';
const ALICE = `${KIT_L2}/users/alice`;

/** Runs every queued job; the documents the peers were sent, as `<type> <inbox>`. */
async function sent(kit: Kit): Promise<string[]> {
  while ((await kit.deliver.runOnce()) > 0);
  return kit.federation.delivered.map((d) => `${(d.document as { type: string }).type} ${d.inbox}`);
}

describe('blocking through the use-case kit', () => {
  it('finds @bob@peer.example by WebFinger, then his actor, and sends him the Block signed by alice', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    kit.federation.accounts.set('bob@peer.example', BOB);
    kit.federation.actors.set(BOB, { id: BOB, inbox: `${BOB}/inbox`, sharedInbox: null });

    const blocked = await kit.useCases.blockActor.execute({
      asker: alice.claims,
      username: 'alice',
      actor: '@bob@peer.example',
    });

    expect(blocked.ok && blocked.value.block.actor).to.equal(BOB);
    expect(kit.federation.requests).to.deep.equal(['webfinger acct:bob@peer.example', `actor ${BOB}`]);
    expect(await sent(kit)).to.deep.equal([`Block ${BOB}/inbox`]);
    expect(kit.federation.delivered[0]?.key.keyId).to.equal(`${ALICE}#main-key`);

    const unblocked = await kit.useCases.unblockActor.execute({
      asker: alice.claims,
      username: 'alice',
      id: blocked.ok ? blocked.value.block.id : '',
    });
    expect(unblocked.ok).to.equal(true);
    expect((await sent(kit)).slice(1)).to.deep.equal([`Undo ${BOB}/inbox`]);
  });
});
