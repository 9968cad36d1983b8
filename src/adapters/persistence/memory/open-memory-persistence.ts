import type { Persistence } from '../../../application/ports/persistence.js';
import { InMemoryIssuedTokenRegistry } from './in-memory-issued-token-registry.js';
import { InMemoryJobQueue } from './in-memory-job-queue.js';
import { InMemoryRendererAttachments } from './in-memory-renderer-attachments.js';
import { InMemoryRevocationStore } from './in-memory-revocation-store.js';
import { InMemoryStoreHealth } from './in-memory-store-health.js';
import { InMemoryUserRepository } from './in-memory-user-repository.js';
import { MemoryDatabase } from './memory-database.js';

/** A fresh, empty store whose data lives as long as the process; every port shares one `MemoryDatabase`. */
export function openMemoryPersistence(db: MemoryDatabase = new MemoryDatabase()): Persistence {
  return {
    users: new InMemoryUserRepository(db),
    issuedTokens: new InMemoryIssuedTokenRegistry(db),
    revocations: new InMemoryRevocationStore(db),
    attachments: new InMemoryRendererAttachments(db),
    jobs: new InMemoryJobQueue(db),
    health: new InMemoryStoreHealth(db),
    close: async () => db.close(),
  };
}
