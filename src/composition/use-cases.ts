// Every use-case and what it is built from: the one list to extend when adding one. Its type is the application's
// UseCases, so a use-case listed there and not built here (or built from the wrong parts) does not compile.
import { instancePerContainerCachingFactory as single, type DependencyContainer } from 'tsyringe';
import { AuthenticateToken } from '../application/services/authenticate-token.js';
import { RevocationWriter } from '../application/services/revocation-writer.js';
import type { UseCases } from '../application/use-cases.js';
import { PasswordCheck } from '../application/services/password-check.js';
import { AttachRenderer } from '../application/use-cases/accounts/attach-renderer.js';
import { ChangePassword } from '../application/use-cases/accounts/change-password.js';
import { DeleteAccount } from '../application/use-cases/accounts/delete-account.js';
import { DetachRenderer } from '../application/use-cases/accounts/detach-renderer.js';
import { GetCurrentUser } from '../application/use-cases/accounts/get-current-user.js';
import { GetUser } from '../application/use-cases/accounts/get-user.js';
import { IssueToken } from '../application/use-cases/accounts/issue-token.js';
import { ListRenderers } from '../application/use-cases/accounts/list-renderers.js';
import { ListSessions } from '../application/use-cases/accounts/list-sessions.js';
import { ListUsers } from '../application/use-cases/accounts/list-users.js';
import { RegisterUser } from '../application/use-cases/accounts/register-user.js';
import { RevokeSession } from '../application/use-cases/accounts/revoke-session.js';
import { RevokeToken } from '../application/use-cases/accounts/revoke-token.js';
import { VerifyToken } from '../application/use-cases/accounts/verify-token.js';
import { ListFollowers } from '../application/use-cases/federation/list-followers.js';
import { ReceiveActivity } from '../application/use-cases/federation/receive-activity.js';
import { CleanupRevocations } from '../application/use-cases/operations/cleanup-revocations.js';
import { DescribeUser } from '../application/use-cases/operations/describe-user.js';
import { DisableUser } from '../application/use-cases/operations/disable-user.js';
import { EnableUser } from '../application/use-cases/operations/enable-user.js';
import { GetQueueStatistics } from '../application/use-cases/operations/get-queue-statistics.js';
import { GetStatistics } from '../application/use-cases/operations/get-statistics.js';
import { RevokeUserTokens } from '../application/use-cases/operations/revoke-user-tokens.js';
import { DeleteAsset } from '../application/use-cases/registry/delete-asset.js';
import { GetActivity } from '../application/use-cases/registry/get-activity.js';
import { GetAsset } from '../application/use-cases/registry/get-asset.js';
import { GetEditableAsset } from '../application/use-cases/registry/get-editable-asset.js';
import { ListActivities } from '../application/use-cases/registry/list-activities.js';
import { ListRegistry } from '../application/use-cases/registry/list-registry.js';
import { PublishActivity } from '../application/use-cases/registry/publish-activity.js';
import { RegisterAsset } from '../application/use-cases/registry/register-asset.js';
import { UpdateAsset } from '../application/use-cases/registry/update-asset.js';
import { TOKENS } from './tokens.js';

type Factories = { readonly [K in keyof UseCases]: (c: DependencyContainer) => UseCases[K] };

const USE_CASES: Factories = {
  registerUser: (c) =>
    new RegisterUser(
      c.resolve(TOKENS.UserRepository),
      c.resolve(TOKENS.PasswordHasher),
      c.resolve(TOKENS.KeyPairGenerator),
      c.resolve(TOKENS.TokenIssuer),
      c.resolve(TOKENS.Clock),
      c.resolve(TOKENS.RegistrationLimit),
    ),
  issueToken: (c) =>
    new IssueToken(
      c.resolve(PasswordCheck),
      c.resolve(TOKENS.TokenIssuer),
      c.resolve(TOKENS.UserRepository),
      c.resolve(RevocationWriter),
    ),
  authenticateToken: (c) => c.resolve(AuthenticateToken),
  verifyToken: (c) => new VerifyToken(c.resolve(AuthenticateToken)),
  revokeToken: (c) =>
    new RevokeToken(
      c.resolve(AuthenticateToken),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.Clock),
    ),
  getCurrentUser: (c) => new GetCurrentUser(c.resolve(TOKENS.UserRepository)),
  changePassword: (c) =>
    new ChangePassword(
      c.resolve(PasswordCheck),
      c.resolve(TOKENS.PasswordHasher),
      c.resolve(TOKENS.UserRepository),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.WorkSignal),
      c.resolve(TOKENS.Clock),
    ),
  listSessions: (c) =>
    new ListSessions(
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(AuthenticateToken),
      c.resolve(TOKENS.Clock),
    ),
  revokeSession: (c) =>
    new RevokeSession(
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(AuthenticateToken),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.Clock),
    ),
  deleteAccount: (c) =>
    new DeleteAccount(
      c.resolve(PasswordCheck),
      c.resolve(TOKENS.AssetRepository),
      c.resolve(TOKENS.ActivityLog),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(TOKENS.AccountRemoval),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.ActivitySigner),
      c.resolve(TOKENS.WorkSignal),
      c.resolve(TOKENS.Clock),
      c.resolve(TOKENS.Urls),
    ),
  getUser: (c) => new GetUser(c.resolve(TOKENS.UserRepository)),
  listUsers: (c) => new ListUsers(c.resolve(TOKENS.UserRepository)),
  attachRenderer: (c) =>
    new AttachRenderer(
      c.resolve(TOKENS.TokenIssuer),
      c.resolve(TOKENS.RendererAttachments),
      c.resolve(TOKENS.DestinationPolicy),
      c.resolve(AuthenticateToken),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.Clock),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(TOKENS.AssetWriteLimit),
    ),
  detachRenderer: (c) =>
    new DetachRenderer(
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(TOKENS.RendererAttachments),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.WorkSignal),
      c.resolve(TOKENS.Clock),
    ),
  listRenderers: (c) => new ListRenderers(c.resolve(TOKENS.RendererAttachments)),

  registerAsset: (c) =>
    new RegisterAsset(
      c.resolve(TOKENS.AssetRepository),
      c.resolve(TOKENS.UserRepository),
      c.resolve(PublishActivity),
      c.resolve(TOKENS.AssetWriteLimit),
    ),
  updateAsset: (c) =>
    new UpdateAsset(
      c.resolve(TOKENS.AssetRepository),
      c.resolve(TOKENS.UserRepository),
      c.resolve(PublishActivity),
      c.resolve(TOKENS.AssetWriteLimit),
    ),
  deleteAsset: (c) =>
    new DeleteAsset(
      c.resolve(TOKENS.AssetRepository),
      c.resolve(TOKENS.UserRepository),
      c.resolve(PublishActivity),
      c.resolve(TOKENS.AssetWriteLimit),
    ),
  getAsset: (c) => new GetAsset(c.resolve(TOKENS.AssetRepository)),
  getEditableAsset: (c) => new GetEditableAsset(c.resolve(TOKENS.AssetRepository)),
  listRegistry: (c) => new ListRegistry(c.resolve(TOKENS.AssetRepository)),
  getActivity: (c) => new GetActivity(c.resolve(TOKENS.ActivityLog)),
  listActivities: (c) => new ListActivities(c.resolve(TOKENS.ActivityLog)),

  listFollowers: (c) => new ListFollowers(c.resolve(TOKENS.FollowerRepository)),
  receiveActivity: (c) =>
    new ReceiveActivity(
      c.resolve(TOKENS.UserRepository),
      c.resolve(TOKENS.FollowerRepository),
      c.resolve(TOKENS.SignatureVerifier),
      c.resolve(TOKENS.FederationClient),
      c.resolve(TOKENS.WorkSignal),
      c.resolve(TOKENS.Clock),
      c.resolve(TOKENS.IdGenerator),
      c.resolve(TOKENS.Urls),
      c.resolve(TOKENS.FollowLimits),
    ),

  getStatistics: (c) =>
    new GetStatistics(
      c.resolve(TOKENS.UserRepository),
      c.resolve(TOKENS.AssetRepository),
      c.resolve(TOKENS.ActivityLog),
    ),
  getQueueStatistics: (c) => new GetQueueStatistics(c.resolve(TOKENS.JobQueue)),
  revokeUserTokens: (c) =>
    new RevokeUserTokens(
      c.resolve(TOKENS.UserRepository),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.Clock),
    ),
  describeUser: (c) =>
    new DescribeUser(
      c.resolve(TOKENS.UserRepository),
      c.resolve(TOKENS.ActivityLog),
      c.resolve(TOKENS.AssetRepository),
      c.resolve(TOKENS.FollowerRepository),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(TOKENS.RendererAttachments),
      c.resolve(TOKENS.Clock),
    ),
  disableUser: (c) =>
    new DisableUser(
      c.resolve(TOKENS.UserRepository),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(RevocationWriter),
      c.resolve(TOKENS.WorkSignal),
      c.resolve(TOKENS.Clock),
    ),
  enableUser: (c) => new EnableUser(c.resolve(TOKENS.UserRepository)),
  cleanupRevocations: (c) =>
    new CleanupRevocations(
      c.resolve(TOKENS.RevocationStore),
      c.resolve(TOKENS.IssuedTokenRegistry),
      c.resolve(TOKENS.Clock),
    ),
};

const tokenOf = (name: keyof UseCases): symbol => Symbol.for(`l2.useCase.${name}`);

/** Registers every use-case of the list, each built once per container. */
export function registerUseCases(c: DependencyContainer): void {
  for (const [name, make] of Object.entries(USE_CASES) as [
    keyof UseCases,
    (c: DependencyContainer) => unknown,
  ][]) {
    c.register(tokenOf(name), { useFactory: single(make) });
  }
}

/** The use-cases of a container, by name. */
export function useCasesOf(c: DependencyContainer): UseCases {
  return Object.fromEntries(
    Object.keys(USE_CASES).map((name) => [name, c.resolve(tokenOf(name as keyof UseCases))]),
  ) as unknown as UseCases;
}
