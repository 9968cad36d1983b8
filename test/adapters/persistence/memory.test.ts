import {
  openMemoryPersistence,
  type MemoryPersistence,
} from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import { accountRemovalContract } from '../../contract/account-removal.contract.js';
import { activityLogContract } from '../../contract/activity-log.contract.js';
import { assetRepositoryContract } from '../../contract/asset-repository.contract.js';
import {
  followerRepositoryContract,
  remoteKeyStoreContract,
} from '../../contract/follower-repository.contract.js';
import type { PersistenceHarness } from '../../contract/harness.js';
import { issuedTokenRegistryContract } from '../../contract/issued-token-registry.contract.js';
import { jobQueueContract } from '../../contract/job-queue.contract.js';
import { rendererAttachmentsContract } from '../../contract/renderer-attachments.contract.js';
import { revocationStoreContract } from '../../contract/revocation-store.contract.js';
import { storeHealthContract } from '../../contract/store-health.contract.js';
import { storeTransferContract } from '../../contract/store-transfer.contract.js';
import { userRepositoryContract } from '../../contract/user-repository.contract.js';

describe('in-memory persistence', () => {
  const harness: PersistenceHarness<MemoryPersistence> = { open: async () => openMemoryPersistence() };

  userRepositoryContract('memory', harness);
  issuedTokenRegistryContract('memory', harness);
  revocationStoreContract('memory', harness);
  rendererAttachmentsContract('memory', harness);
  jobQueueContract('memory', harness);
  assetRepositoryContract('memory', harness);
  activityLogContract('memory', harness);
  followerRepositoryContract('memory', harness);
  remoteKeyStoreContract('memory', harness);
  accountRemovalContract('memory', harness);
  storeHealthContract('memory', harness);
  storeTransferContract('memory', harness);
});
