// Moving out (API.md §4.3) as HTTP answers: the move, its state and its cancel.
import type { MoveAccountError } from '../../../../application/use-cases/accounts/move-account.js';
import type { MoveStateError } from '../../../../application/use-cases/accounts/move-state.js';
import { passwordRefusals } from './account-errors.js';
import { ErrorTable } from './error-table.js';
import { invalidField, rateLimited, scopedTokenForbidden } from './shared-refusals.js';

const days = (seconds: number) => Math.ceil(seconds / 86_400);

export const MOVE_ERRORS = new ErrorTable<MoveAccountError>({
  forbidden: scopedTokenForbidden,
  ...passwordRefusals('The password is wrong.', 'the password is wrong (counts towards the login limits)'),
  move_cooldown: {
    ...rateLimited<{ readonly retryAfterSeconds: number }>(
      '',
      'a move was made less than 30 days ago (see Retry-After)',
    ),
    code: 'rate_limited',
    detail: ({ retryAfterSeconds }) =>
      `A move was made less than 30 days ago: the next one is possible in ${days(retryAfterSeconds)} day${days(retryAfterSeconds) === 1 ? '' : 's'}.`,
  },
  lookups_limited: {
    ...rateLimited(
      'Too many look-ups of other accounts in a short time. Try again later.',
      'LOOKUPS_PER_USER is used up (see Retry-After)',
    ),
    code: 'rate_limited',
  },
  invalid_request: invalidField(
    'the target is missing or malformed, cannot be read as an actor, is this actor, has moved itself, or does not list this actor in alsoKnownAs (path target)',
  ),
});

export const MOVE_STATE_ERRORS = new ErrorTable<MoveStateError>({
  forbidden: scopedTokenForbidden,
  not_found: { status: 404, doc: 'the account is gone', detail: 'There is no such account.' },
});
