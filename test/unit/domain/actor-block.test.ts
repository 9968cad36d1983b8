import { expect } from 'chai';
import { blockSentOf, checkBlockTarget } from '../../../src/domain/actor-block.js';
import { blockDocument, undoBlockDocument } from '../../../src/domain/follow-documents.js';

const alice = 'https://l2.example/users/alice';
const bob = 'https://peer.example/users/bob';
const AS = 'https://www.w3.org/ns/activitystreams';

describe('actor blocks: a person’s block of an actor (API.md §4.3 "Blocking an actor")', () => {
  it('sends a Block with id <actor>#blocks/<block id>, and its Undo repeats that Block', () => {
    const sent = blockSentOf({ id: 'b7', actor: bob }, alice);
    expect(blockDocument(sent)).to.deep.equal({
      '@context': AS,
      id: 'https://l2.example/users/alice#blocks/b7',
      type: 'Block',
      actor: alice,
      object: bob,
    });
    expect(undoBlockDocument(sent)).to.deep.include({
      id: 'https://l2.example/users/alice#blocks/b7/undo',
      type: 'Undo',
      actor: alice,
    });
    expect(undoBlockDocument(sent).object).to.deep.equal({
      id: 'https://l2.example/users/alice#blocks/b7',
      type: 'Block',
      actor: alice,
      object: bob,
    });
  });

  it('refuses to block the user themself or a local user, and takes a remote actor', () => {
    expect(checkBlockTarget({ id: bob, local: false, ownActor: alice })).to.deep.equal({
      ok: true,
      value: bob,
    });
    expect(checkBlockTarget({ id: alice, local: true, ownActor: alice })).to.deep.equal({
      ok: false,
      error: 'self',
    });
    const carol = 'https://l2.example/users/carol';
    expect(checkBlockTarget({ id: carol, local: true, ownActor: alice })).to.deep.equal({
      ok: false,
      error: 'local_user',
    });
  });
});
