import { expect } from 'chai';
import { rejectDocument, rejectId } from '../../../src/domain/follow-documents.js';
import {
  followAnswer,
  followSeenOf,
  followerOf,
  renewedRequest,
  type FollowRequest,
} from '../../../src/domain/follow-request.js';
import type { Username } from '../../../src/domain/user.js';

const alice = 'https://l2.example/users/alice';
const bob = 'https://peer.example/users/bob';
const request: FollowRequest = {
  id: 'r1',
  username: 'alice' as Username,
  actor: bob,
  inbox: 'https://peer.example/users/bob/inbox',
  sharedInbox: 'https://peer.example/inbox',
  followId: 'https://peer.example/follows/1',
  requestedAt: new Date('2026-01-01T00:00:00Z'),
};

describe('follow requests: a Follow waiting for the person’s decision (API.md §4.3)', () => {
  it('keeps one request for a repeated Follow: same id and time, the latest Follow id and inboxes', () => {
    const again = renewedRequest(request, {
      inbox: 'https://peer.example/users/bob/inbox2',
      sharedInbox: null,
      followId: 'https://peer.example/follows/2',
    });
    expect(again).to.deep.equal({
      ...request,
      inbox: 'https://peer.example/users/bob/inbox2',
      sharedInbox: null,
      followId: 'https://peer.example/follows/2',
    });
  });

  it('makes an accepted request a follower with its inboxes and Follow id, followed from the acceptance', () => {
    const acceptedAt = new Date('2026-01-02T00:00:00Z');
    expect(followerOf(request, acceptedAt)).to.deep.equal({
      username: 'alice',
      actor: bob,
      inbox: request.inbox,
      sharedInbox: request.sharedInbox,
      followId: request.followId,
      followedAt: acceptedAt,
    });
  });

  it('repeats their Follow in the Reject: its id, their actor, this user as object', () => {
    const reject = rejectDocument({
      id: rejectId(alice, request.id),
      actor: alice,
      follow: followSeenOf(request, alice),
    });
    expect(reject.object).to.deep.equal({ id: request.followId, type: 'Follow', actor: bob, object: alice });
    const noId = followSeenOf({ ...request, followId: null }, alice);
    expect(rejectDocument({ id: rejectId(alice, 'r2'), actor: alice, follow: noId }).object).to.deep.equal({
      type: 'Follow',
      actor: bob,
      object: alice,
    });
  });

  it('answers a Follow: a block or a move rejects, a follower or an unlocked account accepts, else a request', () => {
    const open = {
      blockedByUser: false,
      moved: false,
      alreadyFollows: false,
      manuallyApprovesFollowers: false,
    };
    expect(followAnswer(open)).to.equal('accept');
    expect(followAnswer({ ...open, manuallyApprovesFollowers: true })).to.equal('request');
    expect(followAnswer({ ...open, manuallyApprovesFollowers: true, alreadyFollows: true })).to.equal(
      'accept',
    );
    expect(followAnswer({ ...open, blockedByUser: true, alreadyFollows: true })).to.equal('reject');
    expect(followAnswer({ ...open, moved: true, manuallyApprovesFollowers: true })).to.equal('reject');
  });
});
