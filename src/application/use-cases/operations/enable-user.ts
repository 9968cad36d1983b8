// Rule (operators): enabling a disabled account gives it back as it was — actor, webfinger and sign-in — except
// its tokens, which stay revoked: its owner signs in again.
import { err, ok, type Result } from '../../../domain/result.js';
import { normaliseUsername } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { AccountStateChangeError } from './disable-user.js';

export class EnableUser {
  constructor(private readonly users: UserRepository) {}

  /** Whether the account was disabled (enabling an enabled account changes nothing). */
  async execute(name: string): Promise<Result<{ readonly wasDisabled: boolean }, AccountStateChangeError>> {
    const username = normaliseUsername(name);
    const profile = username.ok ? await this.users.findProfile(username.value) : null;
    if (!profile) return err({ type: 'not_found' });
    if (profile.deletedAt !== null || !(await this.users.enable(profile.username)))
      return err({ type: 'deleted' });
    return ok({ wasDisabled: profile.disabledAt !== null });
  }
}
