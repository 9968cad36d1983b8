// The answers of accounts and their sessions (API.md §1): register, login, the caller, revocations, sessions,
// deleting an account, and renderers (scoped tokens). Each is typed by the schema of schemas.ts that
// /openapi.json publishes for it.
import type { RendererAttachment } from '../../../../application/ports/renderer-attachments.js';
import type { IssuedTokenView } from '../../../../application/services/token-issuer.js';
import type { SessionView } from '../../../../application/use-cases/accounts/list-sessions.js';
import type { Urls } from '../../../../domain/activity-streams.js';
import { methodsOf } from '../../../../domain/sign-in-methods.js';
import { expiresAt, issuedAt, TOKEN_LIFETIME_SECONDS, type TokenClaims } from '../../../../domain/token.js';
import type { UserProfile } from '../../../../domain/user.js';
import type * as schemas from '../schemas.js';
import type { Presented } from './presented.js';

/** POST /auth/register: the account, and the session it signed in with. */
export const registeredJson = (
  user: UserProfile,
  session: IssuedTokenView,
  urls: Urls,
  webfingerDomain: string,
): Presented<typeof schemas.RegisterResponse> => ({
  username: user.username,
  actor: urls.actor(user.username),
  webfinger: `acct:${user.username}@${webfingerDomain}`,
  created_at: user.createdAt.toISOString(),
  access_token: session.token,
  token_type: 'Bearer',
  expires_at: session.expiresAt.toISOString(),
});

/** POST /auth/login: a password sign-in's session (the other sign-ins say how: security-presenters.ts). */
export const loggedInJson = (session: IssuedTokenView): Presented<typeof schemas.LoginResponse> => ({
  username: session.claims.username,
  access_token: session.token,
  token_type: 'Bearer',
  expires_in: TOKEN_LIFETIME_SECONDS,
  expires_at: session.expiresAt.toISOString(),
});

/** GET /auth/me: the caller, and the token it called with. */
export const meJson = (
  user: UserProfile,
  claims: TokenClaims,
  urls: Urls,
  l2Server: string,
): Presented<typeof schemas.MeResponse> => ({
  username: user.username,
  actor: urls.actor(user.username),
  created_at: user.createdAt.toISOString(),
  l2_server: l2Server,
  token: {
    jti: claims.jti,
    issued_at: issuedAt(claims).toISOString(),
    expires_at: expiresAt(claims).toISOString(),
    l1_server: claims.l1_server ?? null,
    amr: methodsOf(claims),
  },
});

/** Logout, a password change, a session ended, a renderer detached: how many tokens were revoked. */
export const revokedJson = (revoked: number): Presented<typeof schemas.RevokedResponse> => ({ revoked });

/** GET /auth/sessions: the caller's live tokens, newest first. */
export const sessionListJson = (sessions: readonly SessionView[]): Presented<typeof schemas.SessionList> => ({
  items: sessions.map(sessionJson),
});

type SessionJson = Presented<typeof schemas.SessionList>['items'][number];

/** One session or scoped token (the Sessions page lists these too). */
export const sessionJson = (session: SessionView): SessionJson => ({
  jti: session.jti,
  issued_at: session.issuedAt.toISOString(),
  expires_at: session.expiresAt.toISOString(),
  l1_server: session.l1Server,
  current: session.current,
});

/** POST /auth/delete-account: what went with the account. */
export const deletedAccountJson = (
  username: string,
  removed: { readonly revoked: number; readonly assets: number },
): Presented<typeof schemas.DeletedAccount> => ({
  deleted: true,
  username,
  revoked: removed.revoked,
  assets: removed.assets,
});

/** GET /renderers: the L1 servers the caller attached. */
export const renderersJson = (
  attachments: readonly RendererAttachment[],
): Presented<typeof schemas.RenderersResponse> => ({ items: attachments.map(rendererJson) });

type RendererJson = Presented<typeof schemas.RenderersResponse>['items'][number];

/** One attachment (the Renderers page lists these too). */
export const rendererJson = (attachment: RendererAttachment): RendererJson => ({
  l1_server: attachment.l1Server,
  attached_at: attachment.attachedAt.toISOString(),
});

/** POST /renderers/attach: a token scoped to one L1 server. */
export const attachedJson = (
  scoped: IssuedTokenView,
  l1Server: string,
): Presented<typeof schemas.AttachResponse> => ({
  access_token: scoped.token,
  token_type: 'Bearer',
  l1_server: l1Server,
  expires_at: scoped.expiresAt.toISOString(),
});
