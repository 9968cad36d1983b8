// Rule: revocation records are kept only until the token would have expired anyway; the record of issued tokens
// likewise; authorization codes a day past their expiry (long enough to recognise a code replayed late).
import { AUTHORIZATION_CODE_RETENTION_SECONDS } from '../../../domain/oauth.js';
import type { AuthorizationCodeStore } from '../../ports/authorization-code-store.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { RevocationStore } from '../../ports/revocation-store.js';

export class CleanupRevocations {
  constructor(
    private readonly revocations: RevocationStore,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly authorizationCodes: AuthorizationCodeStore,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ revocations: number; issuedTokens: number; authorizationCodes: number }> {
    const now = this.clock.now();
    const codesBefore = new Date(now.getTime() - AUTHORIZATION_CODE_RETENTION_SECONDS * 1000);
    return {
      revocations: await this.revocations.deleteExpired(now),
      issuedTokens: await this.issuedTokens.deleteExpired(now),
      authorizationCodes: await this.authorizationCodes.deleteExpired(codesBefore),
    };
  }
}
