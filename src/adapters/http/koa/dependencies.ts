import type { Logger } from 'pino';
import type { StoreHealth } from '../../../application/ports/store-health.js';
import type { AttachRenderer } from '../../../application/use-cases/attach-renderer.js';
import type { AuthenticateToken } from '../../../application/use-cases/authenticate-token.js';
import type { DetachRenderer } from '../../../application/use-cases/detach-renderer.js';
import type { InstanceActorKeys } from '../../../application/services/instance-actor-keys.js';
import type { ListFollowers } from '../../../application/use-cases/list-followers.js';
import type { ReceiveActivity } from '../../../application/use-cases/receive-activity.js';
import type { DeleteAsset } from '../../../application/use-cases/delete-asset.js';
import type { GetActivity } from '../../../application/use-cases/get-activity.js';
import type { GetAsset } from '../../../application/use-cases/get-asset.js';
import type { GetQueueStatistics } from '../../../application/use-cases/get-queue-statistics.js';
import type { GetUser } from '../../../application/use-cases/get-user.js';
import type { ListActivities } from '../../../application/use-cases/list-activities.js';
import type { ListRegistry } from '../../../application/use-cases/list-registry.js';
import type { ListUsers } from '../../../application/use-cases/list-users.js';
import type { RegisterAsset } from '../../../application/use-cases/register-asset.js';
import type { UpdateAsset } from '../../../application/use-cases/update-asset.js';
import type { Urls } from '../../../domain/activity-streams.js';
import type { GetStatistics } from '../../../application/use-cases/get-statistics.js';
import type { IssueToken } from '../../../application/use-cases/issue-token.js';
import type { ListRenderers } from '../../../application/use-cases/list-renderers.js';
import type { RegisterUser } from '../../../application/use-cases/register-user.js';
import type { RevokeToken } from '../../../application/use-cases/revoke-token.js';
import type { VerifyToken } from '../../../application/use-cases/verify-token.js';
import type { NunjucksViews } from '../../views/nunjucks/nunjucks-views.js';
import type { StaticFile } from '../../views/static-files.js';
import type { CsrfGuard } from './csrf.js';
import type { CookiePolicy } from './session-cookies.js';

export interface HttpSettings {
  /** PUBLIC_URL without a trailing slash; every absolute URL is built from it. */
  readonly publicUrl: string;
  /** Host (and non-default port) of PUBLIC_URL: the domain of `acct:` identities. */
  readonly webfingerDomain: string;
  readonly version: string;
  readonly cookies: CookiePolicy;
  /** Trust X-Forwarded-* (the service runs behind a proxy that sets them). */
  readonly trustProxy: boolean;
}

/** Everything the HTTP adapter needs, handed over by the composition root. */
export interface HttpDependencies {
  readonly settings: HttpSettings;
  /** Every absolute URL the service emits, built from PUBLIC_URL. */
  readonly urls: Urls;
  readonly logger: Logger;
  readonly views: NunjucksViews;
  /** The README rendered for the home page. */
  readonly readmeHtml: string;
  /** Stylesheet, favicon, screenshots: path → file. */
  readonly staticFiles: ReadonlyMap<string, StaticFile>;
  readonly csrf: CsrfGuard;
  readonly health: StoreHealth;
  /** The service actor's key pair (its public key is served at /actor). */
  readonly instanceActorKeys: InstanceActorKeys;
  readonly useCases: {
    readonly registerUser: RegisterUser;
    readonly issueToken: IssueToken;
    readonly authenticateToken: AuthenticateToken;
    readonly verifyToken: VerifyToken;
    readonly revokeToken: RevokeToken;
    readonly attachRenderer: AttachRenderer;
    readonly detachRenderer: DetachRenderer;
    readonly listRenderers: ListRenderers;
    readonly getUser: GetUser;
    readonly getStatistics: GetStatistics;
    readonly registerAsset: RegisterAsset;
    readonly updateAsset: UpdateAsset;
    readonly deleteAsset: DeleteAsset;
    readonly getAsset: GetAsset;
    readonly listRegistry: ListRegistry;
    readonly getActivity: GetActivity;
    readonly listActivities: ListActivities;
    readonly listUsers: ListUsers;
    readonly listFollowers: ListFollowers;
    readonly receiveActivity: ReceiveActivity;
    readonly getQueueStatistics: GetQueueStatistics;
  };
}
