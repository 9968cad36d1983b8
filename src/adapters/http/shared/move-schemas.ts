// Moving out (API.md §4.3): the move request and the move state, as /openapi.json publishes them. The domain judges
// the target (actor-name.ts) after the password and the cool-down, so it is optional here: a missing one is
// refused in that order, not before the password is checked.
import { z } from 'zod';
import { ACTOR_NAME_MAX_CHARACTERS } from '../../../domain/actor-name.js';
import { givenPassword } from './schemas.js';

export const MoveRequest = z
  .object({
    target: z
      .string()
      .max(ACTOR_NAME_MAX_CHARACTERS * 4)
      .optional()
      .openapi({
        description:
          'The account to move to: its actor URL or @user@host. Its alsoKnownAs must list this actor.',
        example: '@alice@mastodon.example',
      }),
    current_password: givenPassword,
  })
  .openapi('MoveRequest');

export const MoveState = z
  .object({
    moved_to: z.string().nullable().openapi({ description: 'The actor moved to, or null' }),
    moved_at: z.string().datetime().nullable(),
    also_known_as: z.array(z.string()).openapi({ description: 'The actor ids of your other accounts' }),
  })
  .openapi('MoveState');

export const MoveMade = z
  .object({
    moved_to: z.string(),
    moved_at: z.string().datetime(),
    followers: z.number().int().min(0).openapi({ description: 'How many followers the Move was sent for' }),
  })
  .openapi('MoveMade');
