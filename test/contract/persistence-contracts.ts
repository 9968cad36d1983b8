import type { Persistence } from '../../src/application/ports/persistence.js';
import { accountRemovalContract } from './account-removal.contract.js';
import { accountSecurityStoreContract } from './account-security-store.contract.js';
import { activityLogContract } from './activity-log.contract.js';
import { actorBlockStoreContract } from './actor-block-store.contract.js';
import { assetRepositoryContract } from './asset-repository.contract.js';
import { assetTagsContract } from './asset-tags.contract.js';
import { authorizationCodeStoreContract } from './authorization-code-store.contract.js';
import { domainRuleStoreContract } from './domain-rule-store.contract.js';
import { followRequestStoreContract } from './follow-request-store.contract.js';
import { followerRepositoryContract } from './follower-repository.contract.js';
import type { PersistenceHarness } from './harness.js';
import { instanceKeyStoreContract } from './instance-key-store.contract.js';
import { issuedTokenRegistryContract } from './issued-token-registry.contract.js';
import { jobQueueContract } from './job-queue.contract.js';
import { profileContract } from './profile.contract.js';
import { queueAdministrationContract } from './queue-administration.contract.js';
import { remoteKeyStoreContract } from './remote-key-store.contract.js';
import { rendererAttachmentsContract } from './renderer-attachments.contract.js';
import { revocationStoreContract } from './revocation-store.contract.js';
import { storeHealthContract } from './store-health.contract.js';
import { storeTransferContract } from './store-transfer.contract.js';
import { transparencyLogContract } from './transparency-log.contract.js';
import { userRepositoryContract } from './user-repository.contract.js';

/** Every contract of a persistence port, in one place: a store runs this, so none can be left out or run twice. */
const CONTRACTS: readonly ((name: string, harness: PersistenceHarness) => void)[] = [
  userRepositoryContract,
  issuedTokenRegistryContract,
  revocationStoreContract,
  rendererAttachmentsContract,
  authorizationCodeStoreContract,
  jobQueueContract,
  queueAdministrationContract,
  assetRepositoryContract,
  assetTagsContract,
  activityLogContract,
  transparencyLogContract,
  profileContract,
  followerRepositoryContract,
  domainRuleStoreContract,
  followRequestStoreContract,
  actorBlockStoreContract,
  remoteKeyStoreContract,
  instanceKeyStoreContract,
  accountRemovalContract,
  accountSecurityStoreContract,
  storeHealthContract,
  storeTransferContract,
];

/** Runs every persistence contract against the store `harness` opens (a fresh, empty one per test). */
export function persistenceContracts<S extends Persistence>(
  name: string,
  harness: PersistenceHarness<S>,
): void {
  for (const contract of CONTRACTS) contract(name, harness);
}
