// Rule (API.md §2.5): an OpenID Connect code gives an ID token signed with the ID-token key — the issuer, the person,
// the client as audience, the session that allowed the code (auth_time, amr, sid), the request's nonce, and with
// `profile` the profile claims; UserInfo answers the same profile claims for the person.
import type { Urls } from '../../domain/activity-streams.js';
import type { AuthorizationCode } from '../../domain/oauth.js';
import {
  idTokenClaims,
  profileClaims,
  scopeHas,
  type OpenIdGrant,
  type ProfileClaims,
} from '../../domain/openid.js';
import { toSeconds } from '../../domain/token.js';
import type { Username } from '../../domain/user.js';
import type { Clock } from '../ports/clock.js';
import type { IdTokenSigner } from '../ports/id-token-signer.js';
import type { UserRepository } from '../ports/user-repository.js';
import type { ActorViews } from './actor-views.js';

export class OpenIdClaims {
  constructor(
    private readonly signer: IdTokenSigner,
    private readonly users: UserRepository,
    private readonly actorViews: ActorViews,
    private readonly urls: Urls,
    private readonly clock: Clock,
  ) {}

  /** The ID token for a code an OpenID Connect request was granted. */
  async idToken(code: AuthorizationCode, grant: OpenIdGrant): Promise<string> {
    const profile = scopeHas(grant.scope, 'profile') ? await this.profile(code.username) : null;
    return this.signer.sign(
      idTokenClaims({
        issuer: this.urls.base,
        clientId: code.clientId,
        session: code.session,
        grant,
        now: toSeconds(this.clock.now()),
        profile,
      }),
    );
  }

  /** The profile claims of a person, or null when the account is gone (deleted or disabled). */
  async profile(username: Username): Promise<ProfileClaims | null> {
    const user = await this.users.findProfile(username);
    if (!user || user.deletedAt !== null || user.disabledAt !== null) return null;
    const view = await this.actorViews.of(user);
    return profileClaims({
      username: user.username,
      displayName: user.profile.displayName,
      avatarUrl: view.avatar?.url ?? null,
      actorUrl: this.urls.actor(user.username),
    });
  }
}
