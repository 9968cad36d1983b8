// Follow requests and removing a follower (API.md §4.3): the request and answer bodies, which validate input and
// generate /openapi.json.
import { z } from 'zod';
import { isoTime, listOf } from './schemas.js';

export const FollowRequestItem = z
  .object({
    id: z.string().openapi({ description: 'Opaque: the {id} of its accept and reject routes' }),
    actor: z.string().url(),
    requested_at: isoTime,
  })
  .openapi('FollowRequest');

export const FollowRequestList = listOf(FollowRequestItem, 'FollowRequestList');

export const FollowRequestDecided = z
  .object({ id: z.string(), actor: z.string().url(), state: z.enum(['accepted', 'rejected']) })
  .openapi('FollowRequestDecided');

export const RemoveFollowerRequest = z
  .object({
    actor: z.string().max(2048).openapi({ description: 'Their actor id, as the followers list gives it' }),
  })
  .openapi('RemoveFollowerRequest');

export const FollowerRemoved = z
  .object({ actor: z.string().url(), removed: z.literal(true) })
  .openapi('FollowerRemoved');
