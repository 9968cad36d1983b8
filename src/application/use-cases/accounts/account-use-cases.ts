// The accounts area: registration, sign-in with a password, tokens and sessions, the profile and the public actor,
// renderer attachments, deleting an account. Each line makes one use-case from the ports and services (`p`).
import { MoveAccount } from './move-account.js';
import { CancelMove, GetMoveState } from './move-state.js';
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { AttachRenderer } from './attach-renderer.js';
import { ChangePassword } from './change-password.js';
import { DeleteAccount } from './delete-account.js';
import { DetachRenderer } from './detach-renderer.js';
import { GetActorView } from './get-actor-view.js';
import { GetCurrentUser } from './get-current-user.js';
import { GetPublicActor } from './get-public-actor.js';
import { IssueToken } from './issue-token.js';
import { ListRenderers } from './list-renderers.js';
import { ListSessions } from './list-sessions.js';
import { ListUsers } from './list-users.js';
import { RegisterUser } from './register-user.js';
import { RevokeSession } from './revoke-session.js';
import { RevokeToken } from './revoke-token.js';
import { UpdateProfile } from './update-profile.js';
import { VerifyToken } from './verify-token.js';

export const ACCOUNT_USE_CASES = {
  registerUser: (p) =>
    new RegisterUser(p.store.users, p.passwordHasher, p.keyPairs, p.tokenIssuer, p.clock, p.registrations),
  issueToken: (p) => new IssueToken(p.passwordCheck, p.store.accountSecurity, p.secondSteps, p.sessionStart),
  verifyToken: (p) => new VerifyToken(p.authenticateToken),
  revokeToken: (p) => new RevokeToken(p.authenticateToken, p.store.issuedTokens, p.revocationWriter, p.clock),
  getCurrentUser: (p) => new GetCurrentUser(p.store.users),
  changePassword: (p) =>
    new ChangePassword(
      p.passwordCheck,
      p.passwordHasher,
      p.store.users,
      p.store.issuedTokens,
      p.revocationWriter,
      p.workSignal,
      p.clock,
    ),
  listSessions: (p) => new ListSessions(p.store.issuedTokens, p.authenticateToken, p.clock),
  revokeSession: (p) =>
    new RevokeSession(p.store.issuedTokens, p.authenticateToken, p.revocationWriter, p.clock),
  deleteAccount: (p) =>
    new DeleteAccount(
      p.passwordCheck,
      p.store.assets,
      p.store.activities,
      p.store.issuedTokens,
      p.store.accountRemoval,
      p.revocationWriter,
      p.activitySigner,
      p.workSignal,
      p.clock,
      p.urls,
      p.transparency.coverage ?? p.transparencyLog,
    ),
  getPublicActor: (p) => new GetPublicActor(p.store.users),
  getActorView: (p) => new GetActorView(p.actorViews),
  updateProfile: (p) =>
    new UpdateProfile(
      p.store.users,
      p.store.assets,
      p.assetWrites,
      p.workSignal,
      p.clock,
      p.store.followRequests,
      p.ids,
      p.actorResolution,
      p.urls,
    ),
  listUsers: (p) => new ListUsers(p.store.users),
  getMoveState: (p) => new GetMoveState(p.store.users),
  moveAccount: (p) =>
    new MoveAccount(
      p.passwordCheck,
      p.store.users,
      p.store.followers,
      p.actorResolution,
      p.workSignal,
      p.clock,
      p.urls,
    ),
  cancelMove: (p) => new CancelMove(p.store.users, p.workSignal, p.clock),
  attachRenderer: (p) => new AttachRenderer(p.scopedTokenGrant, p.tokenIssuer),
  detachRenderer: (p) =>
    new DetachRenderer(p.store.issuedTokens, p.store.attachments, p.revocationWriter, p.workSignal, p.clock),
  listRenderers: (p) => new ListRenderers(p.store.attachments),
} satisfies AreaRegistry;

export type AccountUseCases = UseCasesOf<typeof ACCOUNT_USE_CASES>;
