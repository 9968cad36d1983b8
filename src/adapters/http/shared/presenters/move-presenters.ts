// The move's answers (API.md §4.3 "Moving out"), typed by the schemas /openapi.json publishes.
import type { MoveMade as Made } from '../../../../application/use-cases/accounts/move-account.js';
import type { MoveState as State } from '../../../../application/use-cases/accounts/move-state.js';
import type { MoveMade, MoveState } from '../move-schemas.js';
import type { Presented } from './presented.js';

/** GET /auth/move, POST /auth/move/cancel. */
export const moveStateJson = (state: State): Presented<typeof MoveState> => ({
  moved_to: state.movedTo,
  moved_at: state.movedAt?.toISOString() ?? null,
  also_known_as: [...state.alsoKnownAs],
});

/** POST /auth/move. */
export const moveMadeJson = (made: Made): Presented<typeof MoveMade> => ({
  moved_to: made.movedTo,
  moved_at: made.movedAt.toISOString(),
  followers: made.followers,
});
