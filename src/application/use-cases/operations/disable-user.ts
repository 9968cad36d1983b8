// Rule (operators): disabling an account stops it at once and everywhere, without losing anything: it cannot sign
// in (401, as a wrong password), every token of it is revoked (the L1 servers are told, as at logout), and its
// actor and webfinger answer 410 — until it is enabled again. Its name, assets, activities and followers stay.
import { err, ok, type Result } from '../../../domain/result.js';
import { normaliseUsername } from '../../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export type AccountStateChangeError = { readonly type: 'not_found' } | { readonly type: 'deleted' };

export interface Disabled {
  /** Tokens newly revoked by this call. */
  readonly revoked: number;
  /** The account was disabled already (its tokens were swept again all the same). */
  readonly already: boolean;
}

export class DisableUser {
  constructor(
    private readonly users: UserRepository,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writer: RevocationWriter,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
  ) {}

  async execute(name: string): Promise<Result<Disabled, AccountStateChangeError>> {
    const username = normaliseUsername(name);
    const profile = username.ok ? await this.users.findProfile(username.value) : null;
    if (!profile) return err({ type: 'not_found' });
    if (profile.deletedAt !== null) return err({ type: 'deleted' });

    const now = this.clock.now();
    const tokens = await this.issuedTokens.listActiveByUser(profile.username, now);
    const revocations = this.writer.revocationsOf(await this.writer.unrevoked(tokens));
    // The mark and the revocations in one write: there is never a disabled account with live tokens, nor the
    // other way round.
    const revoked = await this.users.disable(profile.username, revocations, now);
    if (revoked === null) return err({ type: 'deleted' });
    if (revoked > 0) this.signal.jobsQueued();
    // A login that recorded its token after the list above and read the account before the mark: its token is
    // found here (a later one sees the mark and revokes its own token).
    const late = await this.writer.revoke(await this.issuedTokens.listActiveByUser(profile.username, now));
    return ok({ revoked: revoked + late, already: profile.disabledAt !== null });
  }
}
