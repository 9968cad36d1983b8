import type { Database, Statement } from 'better-sqlite3';
import type { InstanceKeyStore } from '../../../application/ports/instance-key-store.js';
import type { KeyPair } from '../../../application/ports/key-pair-generator.js';
import type { RemoteKey, RemoteKeyStore } from '../../../application/ports/remote-key-store.js';
import { INSTANCE_KEY_ROWS, REMOTE_KEY_ROWS } from './codecs/federation-rows.js';
import { assignments, insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';

type RemoteKeyRow = RowOf<typeof REMOTE_KEY_ROWS.columns>;

export class SqliteRemoteKeyStore implements RemoteKeyStore {
  private readonly select: Statement<[string], RemoteKeyRow>;
  private readonly upsert: Statement<[RemoteKeyRow]>;

  constructor(db: Database) {
    this.select = db.prepare(`SELECT ${REMOTE_KEY_ROWS.list} FROM remote_keys WHERE key_id = ?`);
    this.upsert = db.prepare(
      insertSql(
        REMOTE_KEY_ROWS,
        `ON CONFLICT (key_id) DO UPDATE SET ${assignments(REMOTE_KEY_ROWS, ['key_id'], 'excluded.')}`,
      ),
    );
  }

  async get(keyId: string): Promise<RemoteKey | null> {
    const row = storeCall(() => this.select.get(keyId));
    return row ? REMOTE_KEY_ROWS.fromRow(row) : null;
  }

  async put(key: RemoteKey): Promise<void> {
    storeCall(() => this.upsert.run(REMOTE_KEY_ROWS.toRow(key)));
  }
}

export class SqliteInstanceKeyStore implements InstanceKeyStore {
  private readonly select: Statement<[], RowOf<typeof INSTANCE_KEY_ROWS.columns>>;
  private readonly insert: Statement<[RowOf<typeof INSTANCE_KEY_ROWS.columns>]>;

  constructor(db: Database) {
    this.select = db.prepare(`SELECT ${INSTANCE_KEY_ROWS.list} FROM instance_actor WHERE id = 1`);
    this.insert = db.prepare(insertSql(INSTANCE_KEY_ROWS, '', 'INSERT OR IGNORE'));
  }

  async get(): Promise<KeyPair | null> {
    const row = storeCall(() => this.select.get());
    if (!row) return null;
    const { publicKeyPem, privateKeyPem } = INSTANCE_KEY_ROWS.fromRow(row);
    return { publicKeyPem, privateKeyPem };
  }

  async create(keyPair: KeyPair, now: Date): Promise<KeyPair> {
    storeCall(() => this.insert.run(INSTANCE_KEY_ROWS.toRow({ ...keyPair, createdAt: now })));
    const stored = await this.get();
    if (!stored) throw new Error('the instance key pair was not stored');
    return stored;
  }
}
