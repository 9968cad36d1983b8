// What the edges of the service (HTTP, the CLI, the hourly clean-up) call: each use-case by name. The composition
// root builds exactly this set (its factory map is typed by it), and the HTTP adapter receives it as is.
import type { AuthenticateToken } from './services/authenticate-token.js';
import type { AttachRenderer } from './use-cases/accounts/attach-renderer.js';
import type { ChangePassword } from './use-cases/accounts/change-password.js';
import type { DeleteAccount } from './use-cases/accounts/delete-account.js';
import type { DetachRenderer } from './use-cases/accounts/detach-renderer.js';
import type { GetCurrentUser } from './use-cases/accounts/get-current-user.js';
import type { GetUser } from './use-cases/accounts/get-user.js';
import type { IssueToken } from './use-cases/accounts/issue-token.js';
import type { ListRenderers } from './use-cases/accounts/list-renderers.js';
import type { ListSessions } from './use-cases/accounts/list-sessions.js';
import type { ListUsers } from './use-cases/accounts/list-users.js';
import type { RegisterUser } from './use-cases/accounts/register-user.js';
import type { RevokeSession } from './use-cases/accounts/revoke-session.js';
import type { RevokeToken } from './use-cases/accounts/revoke-token.js';
import type { VerifyToken } from './use-cases/accounts/verify-token.js';
import type { ListFollowers } from './use-cases/federation/list-followers.js';
import type { ReceiveActivity } from './use-cases/federation/receive-activity.js';
import type { CleanupRevocations } from './use-cases/operations/cleanup-revocations.js';
import type { DescribeUser } from './use-cases/operations/describe-user.js';
import type { DisableUser } from './use-cases/operations/disable-user.js';
import type { EnableUser } from './use-cases/operations/enable-user.js';
import type { GetQueueStatistics } from './use-cases/operations/get-queue-statistics.js';
import type { GetStatistics } from './use-cases/operations/get-statistics.js';
import type { RevokeUserTokens } from './use-cases/operations/revoke-user-tokens.js';
import type { DeleteAsset } from './use-cases/registry/delete-asset.js';
import type { GetActivity } from './use-cases/registry/get-activity.js';
import type { GetAsset } from './use-cases/registry/get-asset.js';
import type { GetEditableAsset } from './use-cases/registry/get-editable-asset.js';
import type { ListActivities } from './use-cases/registry/list-activities.js';
import type { ListRegistry } from './use-cases/registry/list-registry.js';
import type { RegisterAsset } from './use-cases/registry/register-asset.js';
import type { UpdateAsset } from './use-cases/registry/update-asset.js';

export interface UseCases {
  // Accounts and tokens
  readonly registerUser: RegisterUser;
  readonly issueToken: IssueToken;
  /** A service rather than a use-case: every signed-in request authenticates through it. */
  readonly authenticateToken: AuthenticateToken;
  readonly verifyToken: VerifyToken;
  readonly revokeToken: RevokeToken;
  readonly getCurrentUser: GetCurrentUser;
  readonly changePassword: ChangePassword;
  readonly listSessions: ListSessions;
  readonly revokeSession: RevokeSession;
  readonly deleteAccount: DeleteAccount;
  readonly getUser: GetUser;
  readonly listUsers: ListUsers;
  readonly attachRenderer: AttachRenderer;
  readonly detachRenderer: DetachRenderer;
  readonly listRenderers: ListRenderers;
  // Registry and activity log
  readonly registerAsset: RegisterAsset;
  readonly updateAsset: UpdateAsset;
  readonly deleteAsset: DeleteAsset;
  readonly getAsset: GetAsset;
  readonly getEditableAsset: GetEditableAsset;
  readonly listRegistry: ListRegistry;
  readonly getActivity: GetActivity;
  readonly listActivities: ListActivities;
  // Federation
  readonly listFollowers: ListFollowers;
  readonly receiveActivity: ReceiveActivity;
  // Operations
  readonly getStatistics: GetStatistics;
  readonly getQueueStatistics: GetQueueStatistics;
  readonly cleanupRevocations: CleanupRevocations;
  readonly revokeUserTokens: RevokeUserTokens;
  readonly describeUser: DescribeUser;
  readonly disableUser: DisableUser;
  readonly enableUser: EnableUser;
}
