// A person's blocks of remote actors (API.md §4.3 "Blocking an actor"): what the routes take and answer.
import { z } from 'zod';
import { ACTOR_NAME_MAX_CHARACTERS } from '../../../domain/actor-name.js';
import { isoTime, listOf } from './schemas.js';

export const BlockRequest = z
  .object({
    actor: z.string().max(ACTOR_NAME_MAX_CHARACTERS).openapi({
      example: '@bob@mastodon.example',
      description: 'The actor to block: its URL or its handle (@user@host).',
    }),
  })
  .openapi('BlockRequest');

export const ActorBlockJson = z
  .object({
    /** Opaque: the `{id}` of the unblock route. */
    id: z.string(),
    actor: z.string().url().openapi({ description: 'The blocked actor’s id, as resolved.' }),
    created_at: isoTime,
  })
  .openapi('ActorBlock');

export const ActorBlockList = listOf(ActorBlockJson, 'ActorBlockList');

export const UnblockedResponse = z.object({ id: z.string(), actor: z.string().url() }).openapi('Unblocked');
