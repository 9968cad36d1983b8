import type { ActivityLog } from './activity-log.js';
import type { AssetRepository } from './asset-repository.js';
import type { FollowerRepository } from './follower-repository.js';
import type { IssuedTokenRegistry } from './issued-token-registry.js';
import type { JobQueue } from './job-queue.js';
import type { RendererAttachments } from './renderer-attachments.js';
import type { RevocationStore } from './revocation-store.js';
import type { StoreHealth } from './store-health.js';
import type { UserRepository } from './user-repository.js';

/** Every persistence port, filled by one store (memory, SQLite, MongoDB) so that multi-record writes share it. */
export interface Persistence {
  readonly users: UserRepository;
  readonly issuedTokens: IssuedTokenRegistry;
  readonly revocations: RevocationStore;
  readonly attachments: RendererAttachments;
  readonly jobs: JobQueue;
  readonly assets: AssetRepository;
  readonly activities: ActivityLog;
  readonly followers: FollowerRepository;
  readonly health: StoreHealth;
  /** Releases the connection. */
  close(): Promise<void>;
}
