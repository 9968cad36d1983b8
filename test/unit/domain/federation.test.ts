import { expect } from 'chai';
import { parseIncomingActivity } from '../../../src/domain/federation.js';

describe('parseIncomingActivity', () => {
  const actor = 'https://peer.example/users/bob';

  it('reads the type, the actor (a URL or an object with an id), the id and the object', () => {
    const read = parseIncomingActivity({
      id: 'https://peer.example/follows/1',
      type: 'Follow',
      actor: { id: actor },
      object: 'https://l2.example/users/alice',
    });
    expect(read).to.deep.equal({
      ok: true,
      value: {
        id: 'https://peer.example/follows/1',
        type: 'Follow',
        actor,
        object: 'https://l2.example/users/alice',
      },
    });
  });

  it('treats an id on another server than the actor as absent', () => {
    for (const id of [
      'https://other.example/follows/1',
      'http://peer.example/follows/1',
      'https://peer.example:8443/f',
    ]) {
      const read = parseIncomingActivity({
        id,
        type: 'Follow',
        actor,
        object: 'https://l2.example/users/alice',
      });
      expect(read.ok && read.value.id, id).to.equal(null);
    }
  });

  it('refuses what is not an activity: not an object, no type, no actor URL', () => {
    for (const body of [
      null,
      [],
      'Follow',
      { actor },
      { type: '', actor },
      { type: 'Follow' },
      { type: 'Follow', actor: 'bob' },
    ])
      expect(parseIncomingActivity(body).ok, JSON.stringify(body)).to.equal(false);
  });
});
