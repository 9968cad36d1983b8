// Rule: any registered user can be looked up by name as a public actor — its profile only: public pages never hold
// a password hash or a private key. An active account answers its profile; a deleted one is gone (since when: its
// actor answers a Tombstone); a disabled one answers as unavailable but keeps everything (it may come back); any
// other name is unknown. Pages, JSON, the actor, its collections, webfinger and the hot paths all render this.
import { err, ok, type Result } from '../../../domain/result.js';
import { accountState, normaliseUsername, type UserProfile, type Username } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type PublicActorError =
  | { readonly type: 'not_found' }
  | { readonly type: 'gone'; readonly username: Username; readonly deletedAt: Date }
  | { readonly type: 'disabled'; readonly username: Username };

export class GetPublicActor {
  constructor(private readonly users: UserRepository) {}

  async execute(name: string): Promise<Result<UserProfile, PublicActorError>> {
    const username = normaliseUsername(name);
    const profile = username.ok ? await this.users.findProfile(username.value) : null;
    if (!profile) return err({ type: 'not_found' });
    switch (accountState(profile)) {
      case 'active':
        return ok(profile);
      case 'deleted':
        return err({ type: 'gone', username: profile.username, deletedAt: profile.deletedAt! });
      case 'disabled':
        return err({ type: 'disabled', username: profile.username });
    }
  }
}
