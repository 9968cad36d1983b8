// What a person's decision about a follow sends (API.md §4.3, §5): an Accept of their Follow, or a Reject of it, to
// the actor's own inbox, signed by the user — each repeating the Follow as the store holds it when it decides.
import type { Urls } from '../../../../domain/activity-streams.js';
import {
  acceptDocument,
  rejectDocument,
  rejectId,
  type FollowSeen,
} from '../../../../domain/follow-documents.js';
import { followSeenOf, type FollowRequest } from '../../../../domain/follow-request.js';
import { acceptJob, rejectJob, type JobSpec } from '../../../../domain/jobs.js';
import type { Username } from '../../../../domain/user.js';
import type { Clock } from '../../../ports/clock.js';
import type { FollowRequestStore } from '../../../ports/follow-request-store.js';
import type { IdGenerator } from '../../../ports/id-generator.js';

/** Who answers, whom, and to which inbox. */
interface Answered {
  readonly username: Username;
  readonly actor: string;
  readonly inbox: string;
  readonly followId: string | null;
}

const followOf = (answered: Answered, urls: Urls): FollowSeen =>
  followSeenOf(answered, urls.actor(answered.username));

/** The Accept of a request (the §5 document, a new id `<actor>#accepts/<n>`). */
export const acceptOf =
  (urls: Urls, ids: IdGenerator) =>
  (request: FollowRequest): JobSpec<'document_delivery'> => {
    const actor = urls.actor(request.username);
    const document = acceptDocument({
      id: `${actor}#accepts/${ids.newId()}`,
      actor,
      follow: followOf(request, urls),
    });
    return acceptJob({ signer: request.username, inbox: request.inbox, document }, request.actor);
  };

/** The Reject of their Follow, id `<actor>#rejects/<id>` (a request's own id, or a new one for a removal). */
export const rejectOf = (urls: Urls, answered: Answered, id: string): JobSpec<'document_delivery'> => {
  const actor = urls.actor(answered.username);
  const document = rejectDocument({ id: rejectId(actor, id), actor, follow: followOf(answered, urls) });
  return rejectJob({ signer: answered.username, inbox: answered.inbox, document }, answered.actor);
};

/** How many requests one write accepts when an account is unlocked. */
export const ACCEPT_ALL_BATCH = 500;

/**
 * Accepts every request waiting for `username` (the account was unlocked: Mastodon does the same), a batch per
 * write, one Accept each; returns how many.
 */
export async function acceptWaiting(
  followRequests: FollowRequestStore,
  username: Username,
  urls: Urls,
  ids: IdGenerator,
  clock: Clock,
): Promise<number> {
  let accepted = 0;
  for (;;) {
    const n = await followRequests.acceptAll(username, acceptOf(urls, ids), clock.now(), ACCEPT_ALL_BATCH);
    accepted += n;
    if (n < ACCEPT_ALL_BATCH) return accepted;
  }
}
