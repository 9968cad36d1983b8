import { PostgresDomainRuleStore } from './postgres-domain-rule-store.js';
import { StoreUnavailableError } from '../../../application/ports/errors.js';
import type { Persistence } from '../../../application/ports/persistence.js';
import { DEFAULT_STORE_SETTINGS, type StoreSettings } from '../store-driver.js';
import { PostgresAccountRemoval } from './postgres-account-removal.js';
import { PostgresAccountSecurityStore } from './postgres-account-security-store.js';
import { PostgresActorBlockStore } from './postgres-actor-block-store.js';
import { PostgresActivityLog } from './postgres-activity-log.js';
import { PostgresAssetRepository } from './postgres-asset-repository.js';
import { PostgresAuthorizationCodes } from './postgres-authorization-codes.js';
import { PostgresDatabase } from './postgres-database.js';
import { oneLine } from './postgres-errors.js';
import { PostgresFollowRequestStore } from './postgres-follow-request-store.js';
import { PostgresFollowerRepository } from './postgres-follower-repository.js';
import { PostgresIssuedTokenRegistry } from './postgres-issued-token-registry.js';
import { PostgresJobQueue } from './postgres-job-queue.js';
import { appliedVersions, migrate } from './postgres-migrate.js';
import { PostgresQueueAdministration } from './postgres-queue-administration.js';
import { PostgresInstanceKeyStore, PostgresRemoteKeyStore } from './postgres-remote-key-store.js';
import { PostgresRendererAttachments } from './postgres-renderer-attachments.js';
import { PostgresRevocationStore } from './postgres-revocation-store.js';
import { PostgresStoreHealth } from './postgres-store-health.js';
import { PostgresStoreTransfer } from './postgres-store-transfer.js';
import { PostgresTransparencyLog } from './postgres-transparency-log.js';
import { parsePostgresUrl, redact } from './postgres-url.js';
import { PostgresUserRepository } from './postgres-user-repository.js';

/** Every persistence port on one PostgreSQL database, with the pool for the rate-limit counters and metrics. */
export interface PostgresPersistence extends Persistence {
  readonly database: PostgresDatabase;
}

/**
 * A store on the PostgreSQL database `url` names, not connected yet (the driver library is not even loaded):
 * `ready()` connects, checks the database and applies the migrations not yet applied. Throws a
 * StoreUnavailableError (naming no password) for a URL that cannot be one.
 */
export function openPostgresPersistence(
  url: string,
  settings: StoreSettings = DEFAULT_STORE_SETTINGS,
): PostgresPersistence {
  const location = parsePostgresUrl(url);
  if ('problem' in location) throw new StoreUnavailableError(`the PostgreSQL URL ${location.problem}`);
  const database = new PostgresDatabase(url, location, settings);
  return {
    database,
    users: new PostgresUserRepository(database),
    issuedTokens: new PostgresIssuedTokenRegistry(database),
    revocations: new PostgresRevocationStore(database),
    attachments: new PostgresRendererAttachments(database),
    authorizationCodes: new PostgresAuthorizationCodes(database),
    jobs: new PostgresJobQueue(database),
    queueAdministration: new PostgresQueueAdministration(database),
    assets: new PostgresAssetRepository(database),
    activities: new PostgresActivityLog(database),
    transparencyLog: new PostgresTransparencyLog(database),
    followers: new PostgresFollowerRepository(database),
    domainRules: new PostgresDomainRuleStore(database),
    followRequests: new PostgresFollowRequestStore(database),
    actorBlocks: new PostgresActorBlockStore(database),
    remoteKeys: new PostgresRemoteKeyStore(database),
    instanceKeys: new PostgresInstanceKeyStore(database),
    accountRemoval: new PostgresAccountRemoval(database),
    accountSecurity: new PostgresAccountSecurityStore(database),
    health: new PostgresStoreHealth(database),
    transfer: new PostgresStoreTransfer(database),
    ready: () => prepare(database),
    describeSchema: async () => {
      const versions = await appliedVersions(database);
      return (
        `PostgreSQL schema at version ${versions.at(-1) ?? 0} (migrations ${versions.join(', ')} applied) ` +
        `on ${database.where}`
      );
    },
    close: () => database.close(),
  };
}

/** Connects, checks the database's encoding, migrates; every failure is one line naming the server, not the password. */
async function prepare(database: PostgresDatabase): Promise<void> {
  const where = database.where;
  let encoding: string | undefined;
  try {
    [{ server_encoding: encoding } = { server_encoding: undefined }] = await database.query<{
      server_encoding: string;
    }>('SHOW server_encoding');
  } catch (error) {
    throw startFailure(error, `cannot reach PostgreSQL at ${where}`, database);
  }
  // The log's entries are stored as text and served as their UTF-8 bytes: a database of another encoding could not
  // hold every entry, or would not give back the bytes that were signed.
  if (encoding !== 'UTF8')
    throw new StoreUnavailableError(
      `the PostgreSQL database at ${where} is encoded ${encoding ?? 'unknown'}: L2 needs UTF8 (CREATE DATABASE … ENCODING 'UTF8')`,
    );
  try {
    await migrate(database);
  } catch (error) {
    throw startFailure(error, `cannot migrate the PostgreSQL database at ${where}`, database);
  }
}

function startFailure(error: unknown, what: string, database: PostgresDatabase): StoreUnavailableError {
  const cause = error instanceof StoreUnavailableError && error.cause !== undefined ? error.cause : error;
  return new StoreUnavailableError(`${what}: ${redact(oneLine(cause), database.location)}`, { cause });
}
