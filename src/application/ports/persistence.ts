import type { AccountRemoval } from './account-removal.js';
import type { AccountSecurityStore } from './account-security-store.js';
import type { ActorBlockStore } from './actor-block-store.js';
import type { ActivityLog } from './activity-log.js';
import type { AssetRepository } from './asset-repository.js';
import type { AuthorizationCodeStore } from './authorization-code-store.js';
import type { DomainRuleStore } from './domain-rule-store.js';
import type { FollowRequestStore } from './follow-request-store.js';
import type { FollowerRepository } from './follower-repository.js';
import type { InstanceKeyStore } from './instance-key-store.js';
import type { IssuedTokenRegistry } from './issued-token-registry.js';
import type { JobQueue } from './job-queue.js';
import type { QueueAdministration } from './queue-administration.js';
import type { RemoteKeyStore } from './remote-key-store.js';
import type { RendererAttachments } from './renderer-attachments.js';
import type { RevocationStore } from './revocation-store.js';
import type { StoreHealth } from './store-health.js';
import type { StoreTransfer } from './store-transfer.js';
import type { TransparencyLogStore } from './transparency-log-store.js';
import type { UserRepository } from './user-repository.js';

/** Every persistence port, filled by one store (memory, SQLite, MongoDB) so that multi-record writes share it. */
export interface Persistence {
  readonly users: UserRepository;
  readonly issuedTokens: IssuedTokenRegistry;
  readonly revocations: RevocationStore;
  readonly attachments: RendererAttachments;
  /** The codes of "Sign in with L2" (API.md §2.3). */
  readonly authorizationCodes: AuthorizationCodeStore;
  /** The outbound worker's queue. */
  readonly jobs: JobQueue;
  /** The same jobs as an operator sees them: counts, `l2 queue list`, retry and drop. */
  readonly queueAdministration: QueueAdministration;
  readonly assets: AssetRepository;
  readonly activities: ActivityLog;
  /** The activity log as a Merkle log: the hashes its appends keep, its entries, its latest checkpoint. */
  readonly transparencyLog: TransparencyLogStore;
  readonly followers: FollowerRepository;
  /** The operator's domain blocks and allow rules (`l2 domains`). */
  readonly domainRules: DomainRuleStore;
  /** Follows waiting for a locked account's decision (API.md §4.3). */
  readonly followRequests: FollowRequestStore;
  /** The remote actors each user blocks (API.md §4.3). */
  readonly actorBlocks: ActorBlockStore;
  readonly remoteKeys: RemoteKeyStore;
  readonly instanceKeys: InstanceKeyStore;
  readonly accountRemoval: AccountRemoval;
  /** Second factors, recovery codes, passkeys, challenges and the accounts' history. */
  readonly accountSecurity: AccountSecurityStore;
  readonly health: StoreHealth;
  /** Every record out, and into an empty store (`l2 store export` / `import`). */
  readonly transfer: StoreTransfer;
  /**
   * Resolves once the store is usable: connected, schema and indexes in place (idempotent). Rejects with a
   * StoreUnavailableError whose message says why, so start-up can stop with one line.
   */
  ready(): Promise<void>;
  /** What the schema is, in one line for an operator (`l2 store migrate`), once `ready()` has resolved. */
  describeSchema(): Promise<string>;
  /** Releases the connection. */
  close(): Promise<void>;
}
