// A person's blocks of remote actors (API.md §4.3 "Blocking an actor").
import type { ActorBlock } from '../../../../domain/actor-block.js';
import type { Username } from '../../../../domain/user.js';
import type { MongoCodec } from '../mongo-codec.js';

/** A block, keyed by its id; `seq` is its position among all blocks, from the `actor_block_seq` counter. */
export interface ActorBlockDocument {
  _id: string;
  seq: number;
  username: string;
  actor: string;
  inbox: string;
  createdAt: Date;
}

export const ACTOR_BLOCK_DOCUMENTS: MongoCodec<ActorBlock, Omit<ActorBlockDocument, 'seq'>> = {
  toDocument: (b) => ({
    _id: b.id,
    username: b.username,
    actor: b.actor,
    inbox: b.inbox,
    createdAt: b.createdAt,
  }),
  fromDocument: (doc) => ({
    id: doc._id,
    username: doc.username as Username,
    actor: doc.actor,
    inbox: doc.inbox,
    createdAt: doc.createdAt,
  }),
};
