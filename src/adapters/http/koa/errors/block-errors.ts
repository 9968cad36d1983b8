// A person's blocks of remote actors as HTTP answers (API.md §4.3 "Blocking an actor").
import type { BlockActorError } from '../../../../application/use-cases/federation/blocks/block-actor.js';
import type { BlockingUserError } from '../../../../application/use-cases/federation/blocks/blocking-user.js';
import type { UnblockActorError } from '../../../../application/use-cases/federation/blocks/unblock-actor.js';
import { ErrorTable, type Entries } from './error-table.js';
import { invalidField, rateLimited, SCOPED_TOKEN_DETAIL, scopedTokenForbidden } from './shared-refusals.js';

/** The blocks of a user are theirs alone: another user, or a token scoped to an L1 server, is refused. */
const owner: Entries<BlockingUserError> = {
  not_found: { status: 404, doc: 'no such user', detail: 'There is no such user.' },
  forbidden: {
    status: 403,
    doc: ['another user’s blocks', scopedTokenForbidden.doc as string],
    detail: (error) =>
      error.reason === 'scoped_token'
        ? SCOPED_TOKEN_DETAIL
        : 'Only the user themself can see and change their blocks.',
  },
};

const budget = rateLimited<{ readonly retryAfterSeconds: number }>(
  'Too many blocks, unblocks and follower changes in a short time. Try again later.',
  'the per-user budget of follower actions (FOLLOWER_ACTIONS_PER_USER), or of lookups, is used up (see Retry-After)',
);

/** GET /users/{u}/blocks. */
export const BLOCK_LIST_ERRORS = new ErrorTable<BlockingUserError>(owner);

/** POST /users/{u}/blocks. */
export const BLOCK_ERRORS = new ErrorTable<BlockActorError>({
  ...owner,
  invalid_request: invalidField(),
  rate_limited: budget,
});

/** DELETE /users/{u}/blocks/{id}. */
export const UNBLOCK_ERRORS = new ErrorTable<UnblockActorError>({
  ...owner,
  not_found: {
    status: 404,
    doc: 'no such user, or no such block of theirs',
    detail: 'There is no such block.',
  },
  rate_limited: budget,
});
