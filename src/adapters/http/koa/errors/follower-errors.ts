// A person's followers and follow requests (API.md §4.3) as HTTP answers: theirs alone, within their budget.
import type {
  FollowerActionError,
  OwnFollowersError,
} from '../../../../application/use-cases/federation/follow-requests/own-followers.js';
import { ErrorTable, type Entries } from './error-table.js';
import { rateLimited, SCOPED_TOKEN_DETAIL, scopedTokenForbidden } from './shared-refusals.js';

const OWN: Entries<OwnFollowersError> = {
  not_found: { status: 404, doc: 'no such user', detail: 'There is no such user.' },
  forbidden: {
    status: 403,
    doc: ['another user’s followers', scopedTokenForbidden.doc as string],
    detail: (error) =>
      error.reason === 'scoped_token'
        ? SCOPED_TOKEN_DETAIL
        : 'Only the user themself can see and decide who follows them.',
  },
};

/** Listing the follow requests: the user themself only. */
export const OWN_FOLLOWERS_ERRORS = new ErrorTable<OwnFollowersError>(OWN);

/** Accepting, rejecting, removing: the user themself, a request or follower that exists, within the budget. */
export const FOLLOWER_ACTION_ERRORS = new ErrorTable<FollowerActionError>({
  ...OWN,
  not_found: {
    status: 404,
    doc: 'no such user; no such follow request (unknown, another user’s, already decided) or follower',
    detail: 'There is no such follow request or follower.',
  },
  rate_limited: rateLimited(
    'Too many follower actions in a short time. Try again later.',
    'FOLLOWER_ACTIONS_PER_USER is used up (see Retry-After)',
  ),
});
