import type { Database, Statement } from 'better-sqlite3';
import type { InstanceKeyStore } from '../../../application/ports/instance-key-store.js';
import type { KeyPair } from '../../../application/ports/key-pair-generator.js';
import type { RemoteKey, RemoteKeyStore } from '../../../application/ports/remote-key-store.js';
import { storeCall } from './sqlite-errors.js';

interface RemoteKeyRow {
  key_id: string;
  owner: string;
  public_key_pem: string;
  fetched_at: number;
}

export class SqliteRemoteKeyStore implements RemoteKeyStore {
  private readonly select: Statement<[string], RemoteKeyRow>;
  private readonly upsert: Statement<[RemoteKeyRow]>;

  constructor(db: Database) {
    this.select = db.prepare(
      'SELECT key_id, owner, public_key_pem, fetched_at FROM remote_keys WHERE key_id = ?',
    );
    this.upsert = db.prepare(`
      INSERT INTO remote_keys (key_id, owner, public_key_pem, fetched_at)
      VALUES (@key_id, @owner, @public_key_pem, @fetched_at)
      ON CONFLICT (key_id) DO UPDATE SET
        owner = excluded.owner, public_key_pem = excluded.public_key_pem, fetched_at = excluded.fetched_at`);
  }

  async get(keyId: string): Promise<RemoteKey | null> {
    const row = storeCall(() => this.select.get(keyId));
    return row
      ? {
          keyId: row.key_id,
          owner: row.owner,
          publicKeyPem: row.public_key_pem,
          fetchedAt: new Date(row.fetched_at),
        }
      : null;
  }

  async put(key: RemoteKey): Promise<void> {
    storeCall(() =>
      this.upsert.run({
        key_id: key.keyId,
        owner: key.owner,
        public_key_pem: key.publicKeyPem,
        fetched_at: key.fetchedAt.getTime(),
      }),
    );
  }
}

export class SqliteInstanceKeyStore implements InstanceKeyStore {
  private readonly select: Statement<[], { public_key_pem: string; private_key_pem: string }>;
  private readonly insert: Statement<[string, string, number]>;

  constructor(db: Database) {
    this.select = db.prepare('SELECT public_key_pem, private_key_pem FROM instance_actor WHERE id = 1');
    this.insert = db.prepare(
      'INSERT OR IGNORE INTO instance_actor (id, public_key_pem, private_key_pem, created_at) VALUES (1, ?, ?, ?)',
    );
  }

  async get(): Promise<KeyPair | null> {
    const row = storeCall(() => this.select.get());
    return row ? { publicKeyPem: row.public_key_pem, privateKeyPem: row.private_key_pem } : null;
  }

  async create(keyPair: KeyPair, now: Date): Promise<KeyPair> {
    storeCall(() => this.insert.run(keyPair.publicKeyPem, keyPair.privateKeyPem, now.getTime()));
    const stored = await this.get();
    if (!stored) throw new Error('the instance key pair was not stored');
    return stored;
  }
}
