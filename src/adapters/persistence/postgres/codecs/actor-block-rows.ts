// A person's blocks of remote actors (API.md §4.3 "Blocking an actor").
import type { ActorBlock } from '../../../../domain/actor-block.js';
import type { Username } from '../../../../domain/user.js';
import { postgresTable } from '../postgres-codec.js';

/** A block; `seq`, its position among all blocks, is the store's (an identity column). */
export const ACTOR_BLOCK_ROWS = postgresTable(
  'actor_blocks',
  {
    id: 'text',
    username: 'text',
    actor: 'text',
    inbox: 'text',
    created_at: 'timestamptz',
  },
  ['seq'],
).codec<ActorBlock>({
  toRow: (b) => ({
    id: b.id,
    username: b.username,
    actor: b.actor,
    inbox: b.inbox,
    created_at: b.createdAt,
  }),
  fromRow: (row) => ({
    id: row.id,
    username: row.username as Username,
    actor: row.actor,
    inbox: row.inbox,
    createdAt: row.created_at,
  }),
});
