import { expect } from 'chai';
import { acceptDocument as acceptFromFederation } from '../../../src/domain/federation.js';
import {
  acceptDocument,
  blockDocument,
  blockId,
  moveDocument,
  rejectDocument,
  rejectId,
  undoBlockDocument,
} from '../../../src/domain/follow-documents.js';

const AS = 'https://www.w3.org/ns/activitystreams';
const alice = 'https://l2.example/users/alice';
const bob = 'https://peer.example/users/bob';
const follow = { id: 'https://peer.example/follows/1', actor: bob, object: alice };

describe('follow documents: what a peer receives for a person’s actions (API.md §4.3)', () => {
  it('rejects a Follow with their Follow embedded, id <actor>#rejects/<id>', () => {
    expect(rejectDocument({ id: rejectId(alice, 'r1'), actor: alice, follow })).to.deep.equal({
      '@context': AS,
      id: 'https://l2.example/users/alice#rejects/r1',
      type: 'Reject',
      actor: alice,
      object: { id: 'https://peer.example/follows/1', type: 'Follow', actor: bob, object: alice },
    });
  });

  it('leaves the Follow id out of a Reject when there was none or it is on another origin than its actor', () => {
    const without = { type: 'Follow', actor: bob, object: alice };
    const id = rejectId(alice, 'r2');
    expect(rejectDocument({ id, actor: alice, follow: { ...follow, id: null } }).object).to.deep.equal(
      without,
    );
    const foreign = { ...follow, id: 'https://elsewhere.example/follows/1' };
    expect(rejectDocument({ id, actor: alice, follow: foreign }).object).to.deep.equal(without);
  });

  it('accepts a Follow with the same embedded Follow (§5), also where the federation module offered it', () => {
    const accept = acceptDocument({ id: `${alice}#accepts/a1`, actor: alice, follow });
    expect(accept).to.deep.equal({
      '@context': AS,
      id: 'https://l2.example/users/alice#accepts/a1',
      type: 'Accept',
      actor: alice,
      object: { id: 'https://peer.example/follows/1', type: 'Follow', actor: bob, object: alice },
    });
    expect(acceptFromFederation({ id: `${alice}#accepts/a1`, actor: alice, follow })).to.deep.equal(accept);
  });

  it('blocks an actor as Mastodon does: id <actor>#blocks/<id>, the blocked actor as object', () => {
    expect(blockDocument({ id: blockId(alice, 'b1'), actor: alice, object: bob })).to.deep.equal({
      '@context': AS,
      id: 'https://l2.example/users/alice#blocks/b1',
      type: 'Block',
      actor: alice,
      object: bob,
    });
  });

  it('undoes a Block with id <block id>/undo and the Block embedded without @context', () => {
    const block = { id: blockId(alice, 'b1'), actor: alice, object: bob };
    expect(undoBlockDocument(block)).to.deep.equal({
      '@context': AS,
      id: 'https://l2.example/users/alice#blocks/b1/undo',
      type: 'Undo',
      actor: alice,
      object: { id: 'https://l2.example/users/alice#blocks/b1', type: 'Block', actor: alice, object: bob },
    });
  });

  it('moves the actor itself to the target, id <actor>#moves/<n>', () => {
    const target = 'https://new.example/users/alice';
    expect(moveDocument({ actor: alice, target, n: 2 })).to.deep.equal({
      '@context': AS,
      id: 'https://l2.example/users/alice#moves/2',
      type: 'Move',
      actor: alice,
      object: alice,
      target,
    });
  });
});
