import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Persistence } from '../../../application/ports/persistence.js';
import { appliedVersions, migrate } from './sqlite-migrate.js';
import { SqliteAccountRemoval } from './sqlite-account-removal.js';
import { SqliteAccountSecurityStore } from './sqlite-account-security-store.js';
import { SqliteActivityLog } from './sqlite-activity-log.js';
import { SqliteActorBlockStore } from './sqlite-actor-block-store.js';
import { SqliteAssetRepository } from './sqlite-asset-repository.js';
import { SqliteAuthorizationCodes } from './sqlite-authorization-codes.js';
import { storeCall } from './sqlite-errors.js';
import { SqliteDomainRuleStore } from './sqlite-domain-rule-store.js';
import { SqliteFollowRequestStore } from './sqlite-follow-request-store.js';
import { SqliteFollowerRepository } from './sqlite-follower-repository.js';
import { SqliteIssuedTokenRegistry } from './sqlite-issued-token-registry.js';
import { SqliteJobQueue } from './sqlite-job-queue.js';
import { SqliteQueueAdministration } from './sqlite-queue-administration.js';
import { SqliteInstanceKeyStore, SqliteRemoteKeyStore } from './sqlite-remote-key-store.js';
import { SqliteRendererAttachments } from './sqlite-renderer-attachments.js';
import { SqliteRevocationStore } from './sqlite-revocation-store.js';
import { SqliteStoreHealth } from './sqlite-store-health.js';
import { SqliteStoreTransfer } from './sqlite-store-transfer.js';
import { SqliteTransparencyLog } from './sqlite-transparency-log.js';
import { SqliteUserRepository } from './sqlite-user-repository.js';

export type SqlitePersistence = Persistence & { readonly db: Database.Database };

/**
 * The store holds every password hash and private key: its directory is created 0700 and its files are 0600. The
 * file is created before SQLite opens it, because SQLite makes its `-wal` and `-shm` files with the mode of the
 * database file; a store made before this rule (0644) is tightened.
 */
function privateStoreFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`])
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}

export interface SqliteOptions {
  /**
   * False: appends keep no transparency log hashes. Only for measuring what keeping them costs (the bench); a file
   * written so has a log out of step with its activities, which the service refuses at its next start.
   */
  readonly transparencyLog?: boolean;
}

/** Opens (creating if needed) and migrates the SQLite file at `path`; `:memory:` gives a private in-memory store. */
export function openSqlitePersistence(path: string, options: SqliteOptions = {}): SqlitePersistence {
  const db = storeCall(() => {
    if (path !== ':memory:' && path !== '') privateStoreFile(path);
    return new Database(path);
  });
  try {
    // busy_timeout first: switching to WAL and migrating wait for another process that holds the lock.
    storeCall(() => {
      db.pragma('busy_timeout = 5000');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
    });
    migrate(db);
    const activities = new SqliteActivityLog(db, { keepTree: options.transparencyLog ?? true });
    return {
      db,
      users: new SqliteUserRepository(db),
      issuedTokens: new SqliteIssuedTokenRegistry(db),
      revocations: new SqliteRevocationStore(db),
      attachments: new SqliteRendererAttachments(db),
      authorizationCodes: new SqliteAuthorizationCodes(db),
      jobs: new SqliteJobQueue(db),
      queueAdministration: new SqliteQueueAdministration(db),
      assets: new SqliteAssetRepository(db),
      activities,
      transparencyLog: new SqliteTransparencyLog(db),
      followers: new SqliteFollowerRepository(db),
      domainRules: new SqliteDomainRuleStore(db),
      followRequests: new SqliteFollowRequestStore(db),
      actorBlocks: new SqliteActorBlockStore(db),
      remoteKeys: new SqliteRemoteKeyStore(db),
      instanceKeys: new SqliteInstanceKeyStore(db),
      accountRemoval: new SqliteAccountRemoval(db, activities),
      accountSecurity: new SqliteAccountSecurityStore(db),
      health: new SqliteStoreHealth(db),
      transfer: new SqliteStoreTransfer(db),
      // Opening already migrated the schema (synchronously), so there is nothing left to wait for.
      ready: async () => {},
      describeSchema: async () => {
        const versions = appliedVersions(db);
        return `SQLite schema at version ${versions.at(-1) ?? 0} (migrations ${versions.join(', ')} applied)`;
      },
      close: async () => {
        if (db.open) db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
