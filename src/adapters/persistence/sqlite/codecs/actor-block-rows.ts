// A person's blocks of remote actors (API.md §4.3 "Blocking an actor").
import type { ActorBlock } from '../../../../domain/actor-block.js';
import type { Username } from '../../../../domain/user.js';
import { sqliteTable } from '../sqlite-codec.js';

/** A block; `seq`, its position among all blocks, is the store's (AUTOINCREMENT). */
export const ACTOR_BLOCK_ROWS = sqliteTable(
  'actor_blocks',
  {
    id: 'text',
    username: 'text',
    actor: 'text',
    inbox: 'text',
    created_at: 'integer',
  },
  ['seq'],
).codec<ActorBlock>({
  toRow: (b) => ({
    id: b.id,
    username: b.username,
    actor: b.actor,
    inbox: b.inbox,
    created_at: b.createdAt.getTime(),
  }),
  fromRow: (row) => ({
    id: row.id,
    username: row.username as Username,
    actor: row.actor,
    inbox: row.inbox,
    createdAt: new Date(row.created_at),
  }),
});
