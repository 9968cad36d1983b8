import type { ActorBlock } from '../../../domain/actor-block.js';

/** A block at its position among all blocks (1, 2, 3, … like AUTOINCREMENT). */
export interface StoredActorBlock {
  readonly position: number;
  readonly block: ActorBlock;
}

/** The blocks of every user, in position order: the table MemoryDatabase holds. */
export class MemoryActorBlocks {
  readonly rows: StoredActorBlock[] = [];
  private lastPosition = 0;

  add(block: ActorBlock): void {
    this.rows.push({ position: ++this.lastPosition, block: copyOf(block) });
  }
}

/** A copy the caller cannot change the table through. */
export const copyOf = (block: ActorBlock): ActorBlock => ({ ...block, createdAt: new Date(block.createdAt) });
