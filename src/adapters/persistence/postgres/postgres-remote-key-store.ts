import type { InstanceKeyStore } from '../../../application/ports/instance-key-store.js';
import type { KeyPair } from '../../../application/ports/key-pair-generator.js';
import type { RemoteKey, RemoteKeyStore } from '../../../application/ports/remote-key-store.js';
import { INSTANCE_KEY_ROWS, REMOTE_KEY_ROWS } from './codecs/federation-rows.js';
import { assignments, insertSql, type RowOf } from './postgres-codec.js';
import { named, type Queryable } from './postgres-sql.js';

type RemoteKeyRow = RowOf<typeof REMOTE_KEY_ROWS.columns>;
type InstanceKeyRow = RowOf<typeof INSTANCE_KEY_ROWS.columns>;

const UPSERT = named<RemoteKeyRow>(
  insertSql(
    REMOTE_KEY_ROWS,
    `ON CONFLICT (key_id) DO UPDATE SET ${assignments(REMOTE_KEY_ROWS, ['key_id'], 'excluded.')}`,
  ),
);

export class PostgresRemoteKeyStore implements RemoteKeyStore {
  constructor(private readonly db: Queryable) {}

  async get(keyId: string): Promise<RemoteKey | null> {
    const [row] = await this.db.query<RemoteKeyRow>(
      `SELECT ${REMOTE_KEY_ROWS.list} FROM remote_keys WHERE key_id = $1`,
      [keyId],
    );
    return row ? REMOTE_KEY_ROWS.fromRow(row) : null;
  }

  async put(key: RemoteKey): Promise<void> {
    await UPSERT.run(this.db, REMOTE_KEY_ROWS.toRow(key));
  }
}

/** The first key pair stored is the one every instance uses: a second, made at the same time elsewhere, is dropped. */
const INSERT_FIRST = named<InstanceKeyRow>(insertSql(INSTANCE_KEY_ROWS, 'ON CONFLICT (id) DO NOTHING'));

export class PostgresInstanceKeyStore implements InstanceKeyStore {
  constructor(private readonly db: Queryable) {}

  async get(): Promise<KeyPair | null> {
    const [row] = await this.db.query<InstanceKeyRow>(
      `SELECT ${INSTANCE_KEY_ROWS.list} FROM instance_actor WHERE id = 1`,
    );
    if (!row) return null;
    const { publicKeyPem, privateKeyPem } = INSTANCE_KEY_ROWS.fromRow(row);
    return { publicKeyPem, privateKeyPem };
  }

  async create(keyPair: KeyPair, now: Date): Promise<KeyPair> {
    await INSERT_FIRST.run(this.db, INSTANCE_KEY_ROWS.toRow({ ...keyPair, createdAt: now }));
    const stored = await this.get();
    if (!stored) throw new Error('the instance key pair was not stored');
    return stored;
  }
}
