// Rule: a person sees the actors they block, newest block first, with the true count — and nobody else does.
import type { ActorBlock } from '../../../../domain/actor-block.js';
import type { Page } from '../../../../domain/page.js';
import { ok, type Result } from '../../../../domain/result.js';
import type { TokenClaims } from '../../../../domain/token.js';
import { paginate, type CursorRequest } from '../../../pagination.js';
import type { ActorBlockStore } from '../../../ports/actor-block-store.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import { blockingUser, type BlockingUserError } from './blocking-user.js';

export class ListActorBlocks {
  constructor(
    private readonly users: UserRepository,
    private readonly blocks: ActorBlockStore,
  ) {}

  async execute(input: {
    asker: TokenClaims;
    username: string;
    page: CursorRequest;
  }): Promise<Result<Page<ActorBlock>, BlockingUserError>> {
    const user = await blockingUser(this.users, input.asker, input.username);
    if (!user.ok) return user;
    const filter = { username: user.value };
    return ok(
      await paginate(input.page, {
        older: (before, limit) => this.blocks.listOlder(filter, before, limit),
        newer: (after, limit) => this.blocks.listNewer(filter, after, limit),
        count: () => this.blocks.count(filter),
      }),
    );
  }
}
