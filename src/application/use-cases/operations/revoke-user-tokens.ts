// Rule (operators): a user can be signed out from the command line — every session token (browsers and API
// clients sign in again; tokens scoped to L1 servers keep working), or with `everywhere` every token, those scoped
// to L1 servers included, each L1 server told as at logout. Revocation first; the notices leave from the queue.
import { normaliseUsername } from '../../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export class RevokeUserTokens {
  constructor(
    private readonly users: UserRepository,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
  ) {}

  /** How many tokens were newly revoked; null when there is no such user. */
  async execute(input: { username: string; everywhere: boolean }): Promise<number | null> {
    const username = normaliseUsername(input.username);
    if (!username.ok || !(await this.users.findProfile(username.value))) return null;
    const tokens = await this.issuedTokens.listActiveByUser(username.value, this.clock.now());
    return this.writer.revoke(input.everywhere ? tokens : tokens.filter((t) => t.l1Server === null));
  }
}
