import { InMemoryDomainRuleStore } from './in-memory-domain-rule-store.js';
import type { Persistence } from '../../../application/ports/persistence.js';
import { InMemoryAccountRemoval } from './in-memory-account-removal.js';
import { InMemoryAccountSecurityStore } from './in-memory-account-security-store.js';
import { InMemoryActivityLog } from './in-memory-activity-log.js';
import { InMemoryActorBlockStore } from './in-memory-actor-block-store.js';
import { InMemoryAssetRepository } from './in-memory-asset-repository.js';
import { InMemoryAuthorizationCodes } from './in-memory-authorization-codes.js';
import { InMemoryFollowRequestStore } from './in-memory-follow-request-store.js';
import { InMemoryFollowerRepository } from './in-memory-follower-repository.js';
import { InMemoryIssuedTokenRegistry } from './in-memory-issued-token-registry.js';
import { InMemoryJobQueue } from './in-memory-job-queue.js';
import { InMemoryQueueAdministration } from './in-memory-queue-administration.js';
import { InMemoryInstanceKeyStore, InMemoryRemoteKeyStore } from './in-memory-remote-key-store.js';
import { InMemoryRendererAttachments } from './in-memory-renderer-attachments.js';
import { InMemoryRevocationStore } from './in-memory-revocation-store.js';
import { InMemoryStoreHealth } from './in-memory-store-health.js';
import { InMemoryStoreTransfer } from './in-memory-store-transfer.js';
import { InMemoryTransparencyLog } from './in-memory-transparency-log.js';
import { InMemoryUserRepository } from './in-memory-user-repository.js';
import { MemoryDatabase } from './memory-database.js';

export type MemoryPersistence = Persistence & { readonly db: MemoryDatabase };

/** A fresh, empty store whose data lives as long as the process; every port shares one `MemoryDatabase`. */
export function openMemoryPersistence(db: MemoryDatabase = new MemoryDatabase()): MemoryPersistence {
  return {
    db,
    users: new InMemoryUserRepository(db),
    issuedTokens: new InMemoryIssuedTokenRegistry(db),
    revocations: new InMemoryRevocationStore(db),
    attachments: new InMemoryRendererAttachments(db),
    authorizationCodes: new InMemoryAuthorizationCodes(db),
    jobs: new InMemoryJobQueue(db),
    queueAdministration: new InMemoryQueueAdministration(db),
    assets: new InMemoryAssetRepository(db),
    activities: new InMemoryActivityLog(db),
    transparencyLog: new InMemoryTransparencyLog(db),
    followers: new InMemoryFollowerRepository(db),
    domainRules: new InMemoryDomainRuleStore(db),
    followRequests: new InMemoryFollowRequestStore(db),
    actorBlocks: new InMemoryActorBlockStore(db),
    remoteKeys: new InMemoryRemoteKeyStore(db),
    instanceKeys: new InMemoryInstanceKeyStore(db),
    accountRemoval: new InMemoryAccountRemoval(db),
    accountSecurity: new InMemoryAccountSecurityStore(db),
    health: new InMemoryStoreHealth(db),
    transfer: new InMemoryStoreTransfer(db),
    ready: async () => {},
    describeSchema: async () => 'an in-memory store: no schema to migrate',
    close: async () => db.close(),
  };
}
