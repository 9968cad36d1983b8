import { MongoDomainRuleStore } from './mongo-domain-rule-store.js';
import { MongoClient, MongoServerError, type Db, type Document } from 'mongodb';
import { StoreUnavailableError } from '../../../application/ports/errors.js';
import type { Persistence } from '../../../application/ports/persistence.js';
import { MongoAccountRemoval } from './mongo-account-removal.js';
import { MongoAccountSecurityStore } from './mongo-account-security-store.js';
import { MongoActivityLog } from './mongo-activity-log.js';
import { MongoActorBlockStore } from './mongo-actor-block-store.js';
import { MongoAssetRepository } from './mongo-asset-repository.js';
import { meansStoreUnavailable, oneLine } from './mongo-errors.js';
import { MongoFollowRequestStore } from './mongo-follow-request-store.js';
import { MongoFollowerRepository } from './mongo-follower-repository.js';
import { MongoIssuedTokenRegistry } from './mongo-issued-token-registry.js';
import { MongoJobQueue } from './mongo-job-queue.js';
import { MongoQueueAdministration } from './mongo-queue-administration.js';
import { MongoInstanceKeyStore, MongoRemoteKeyStore } from './mongo-remote-key-store.js';
import { MongoRendererAttachments } from './mongo-renderer-attachments.js';
import { MongoAuthorizationCodes } from './mongo-authorization-codes.js';
import { MongoRevocationStore } from './mongo-revocation-store.js';
import { ensureSchema } from './mongo-ensure-schema.js';
import { collectionsOf, type MongoCollections } from './mongo-schema.js';
import { MongoStoreTransfer } from './mongo-store-transfer.js';
import { MongoStoreHealth } from './mongo-store-health.js';
import { ensureTagIndex } from './mongo-tag-index.js';
import { ensureTransparencyLog, MongoTransparencyLog } from './mongo-transparency-log.js';
import { ensureUserCounts } from './mongo-user-counts.js';
import { MongoUserRepository } from './mongo-user-repository.js';

/** The database used when the URL names none. */
export const DEFAULT_DATABASE_NAME = 'l2';
/** How long an operation waits for a usable server (at start-up and later) before the store counts as unavailable. */
export const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;

export interface MongoPersistenceOptions {
  /** Overrides the database named in the URL's path. */
  readonly dbName?: string;
  /** Overrides `serverSelectionTimeoutMS` of the URL, whose default here is 5 s (the driver's is 30 s). */
  readonly serverSelectionTimeoutMS?: number;
}

/** Whether the URL's query sets `option` (options given to MongoClient would override the URL's). */
const urlSets = (url: string, option: string): boolean => new RegExp(`[?&]${option}=`, 'i').test(url);

/** Every persistence port on one MongoDB database, with the client and database for others to share. */
export interface MongoPersistence extends Persistence {
  readonly client: MongoClient;
  readonly db: Db;
}

/** The database named by the path of a `mongodb://` or `mongodb+srv://` URL, or null when it names none. */
export function databaseNameIn(url: string): string | null {
  const afterScheme = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const beforeQuery = afterScheme.split(/[?#]/, 1)[0] ?? '';
  const slash = beforeQuery.indexOf('/');
  if (slash === -1) return null;
  const name = decodeURIComponent(beforeQuery.slice(slash + 1));
  return name === '' ? null : name;
}

/**
 * A store on the MongoDB deployment at `url`, not connected yet: `ready()` connects, checks that the deployment
 * can run transactions and creates the indexes and counters. The deployment must be a replica set (a single-node
 * one will do) or a sharded cluster. Throws a StoreUnavailableError for a URL the driver cannot parse.
 */
export function openMongoPersistence(url: string, options: MongoPersistenceOptions = {}): MongoPersistence {
  let client: MongoClient;
  let databaseName: string;
  try {
    client = new MongoClient(url, {
      serverSelectionTimeoutMS:
        options.serverSelectionTimeoutMS ??
        (urlSets(url, 'serverSelectionTimeoutMS') ? undefined : DEFAULT_SERVER_SELECTION_TIMEOUT_MS),
      // Writes outside transactions (issued tokens, the queue, follows, keys) are acknowledged once a majority has
      // them, so a failover cannot roll back one that was answered — the server's own default only since 5.0 — and
      // give up after 10 s, as the driver's commits do, rather than hang while no majority answers. Transactions
      // commit with w: majority whatever this says (mongo-transactions.ts). A `w` or `wtimeoutMS` in the URL is the
      // operator's: the driver takes each key of this object over the URL's, and keeps the URL's others.
      writeConcern: {
        ...(urlSets(url, 'w') ? {} : { w: 'majority' as const }),
        ...(urlSets(url, 'wtimeoutMS') ? {} : { wtimeoutMS: 10_000 }),
      },
    });
    databaseName = options.dbName ?? databaseNameIn(url) ?? DEFAULT_DATABASE_NAME;
  } catch (error) {
    throw new StoreUnavailableError(`invalid MongoDB URL: ${oneLine(error)}`, { cause: error });
  }
  const db = client.db(databaseName);
  const collections = collectionsOf(db);
  const activities = new MongoActivityLog(client, collections);
  let closed = false;
  return {
    client,
    db,
    users: new MongoUserRepository(client, collections),
    issuedTokens: new MongoIssuedTokenRegistry(collections),
    revocations: new MongoRevocationStore(client, collections),
    attachments: new MongoRendererAttachments(client, collections),
    authorizationCodes: new MongoAuthorizationCodes(collections),
    jobs: new MongoJobQueue(collections, db),
    queueAdministration: new MongoQueueAdministration(collections),
    assets: new MongoAssetRepository(collections),
    activities,
    transparencyLog: new MongoTransparencyLog(collections),
    followers: new MongoFollowerRepository(client, collections),
    domainRules: new MongoDomainRuleStore(client, collections),
    followRequests: new MongoFollowRequestStore(client, collections),
    actorBlocks: new MongoActorBlockStore(client, collections),
    remoteKeys: new MongoRemoteKeyStore(collections),
    instanceKeys: new MongoInstanceKeyStore(collections),
    accountRemoval: new MongoAccountRemoval(client, collections, activities),
    accountSecurity: new MongoAccountSecurityStore(client, collections),
    health: new MongoStoreHealth(db),
    transfer: new MongoStoreTransfer(client, collections),
    describeSchema: async () =>
      `MongoDB database ${db.databaseName}: collections, indexes, counters, per-user totals, the tag index and the transparency log in place`,
    ready: async () => {
      if (closed) throw new StoreUnavailableError(`the MongoDB store at ${whereIs(client)} is closed`);
      await prepare(client, db, collections);
    },
    close: async () => {
      closed = true;
      await client.close();
    },
  };
}

/**
 * Connects, checks for transactions, creates indexes and counters, and counts the per-user totals and builds the
 * tag index and the transparency log of a database written before they existed; every failure is one line naming it.
 */
async function prepare(client: MongoClient, db: Db, collections: MongoCollections): Promise<void> {
  const where = whereIs(client);
  let hello: Document;
  try {
    await client.connect();
    hello = await helloOf(client);
  } catch (error) {
    throw startFailure(error, where);
  }
  if (typeof hello.setName !== 'string' && hello.msg !== 'isdbgrid') {
    throw new StoreUnavailableError(
      `MongoDB at ${where} is not a replica set: transactions need one ` +
        '(start mongod with --replSet and run rs.initiate() once, or connect to a mongos)',
    );
  }
  try {
    await ensureSchemaRacing(db, collections);
    await ensureUserCounts(client, collections);
    await ensureTagIndex(client, collections);
    await ensureTransparencyLog(client, collections);
  } catch (error) {
    if (meansStoreUnavailable(error)) throw startFailure(error, where);
    throw new StoreUnavailableError(
      `cannot prepare the indexes and counters of MongoDB database "${db.databaseName}" at ${where}: ` +
        oneLine(error),
      { cause: error },
    );
  }
}

/**
 * Server codes another process starting on the same new database at the same moment can cause (its collection or
 * index created in between): trying once more finds what it made and leaves it alone.
 */
const LOST_SCHEMA_RACE = new Set([
  48 /* NamespaceExists */, 112 /* WriteConflict */, 276 /* IndexBuildAlreadyInProgress */,
]);

async function ensureSchemaRacing(db: Db, collections: MongoCollections): Promise<void> {
  try {
    await ensureSchema(db, collections);
  } catch (error) {
    if (!(error instanceof MongoServerError && LOST_SCHEMA_RACE.has(error.code as number))) throw error;
    await ensureSchema(db, collections);
  }
}

/** The handshake reply; `isMaster` for servers older than `hello` (code 59: CommandNotFound). */
async function helloOf(client: MongoClient): Promise<Document> {
  const admin = client.db('admin');
  try {
    return await admin.command({ hello: 1 });
  } catch (error) {
    if (error instanceof MongoServerError && error.code === 59) return admin.command({ isMaster: 1 });
    throw error;
  }
}

function startFailure(error: unknown, where: string): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const reason = oneLine(error);
  if (meansStoreUnavailable(error)) {
    return new StoreUnavailableError(`cannot reach MongoDB at ${where}: ${reason}`, { cause: error });
  }
  if (error instanceof MongoServerError && (error.code === 18 || error.code === 13)) {
    return new StoreUnavailableError(`MongoDB at ${where} refused the credentials: ${reason}`, {
      cause: error,
    });
  }
  return new StoreUnavailableError(`cannot connect to MongoDB at ${where}: ${reason}`, { cause: error });
}

/** The hosts of the URL (or its SRV name), without credentials: what start-up messages name. */
function whereIs(client: MongoClient): string {
  const { srvHost, hosts } = client.options;
  return srvHost ?? hosts.map((host) => host.toString()).join(',');
}
