// Rule (operators): a user can be signed out from the command line — every session token, and with each session the
// tokens scoped to L1 servers it created (a scoped token never outlives its session), each L1 server told as at
// logout. Revocation first; the notices leave from the queue.
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
  async execute(input: { username: string }): Promise<number | null> {
    const username = normaliseUsername(input.username);
    if (!username.ok || !(await this.users.findProfile(username.value))) return null;
    // Every token of a user is a session or was created by one: revoking the sessions revokes them all.
    return this.writer.revoke(await this.issuedTokens.listActiveByUser(username.value, this.clock.now()));
  }
}
