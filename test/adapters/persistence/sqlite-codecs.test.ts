// Each SQLite codec is the one mapping of its record to and from its table: the compiler holds it to its own
// columns (the `@ts-expect-error` lines below are the type test: `npm run typecheck` fails if any of them compiles),
// and this suite holds its columns to the table the migrations make.
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { ACTOR_BLOCK_ROWS } from '../../../src/adapters/persistence/sqlite/codecs/actor-block-rows.js';
import { ASSET_ROWS } from '../../../src/adapters/persistence/sqlite/codecs/asset-rows.js';
import {
  CHALLENGE_ROWS,
  TOTP_ENROLMENT_ROWS,
} from '../../../src/adapters/persistence/sqlite/codecs/security-rows.js';
import { migrate } from '../../../src/adapters/persistence/sqlite/sqlite-migrate.js';
import { assignments, sqliteTable } from '../../../src/adapters/persistence/sqlite/sqlite-codec.js';
import { TRANSFER_TABLES } from '../../../src/adapters/persistence/sqlite/sqlite-store-transfer.js';
import type { Asset } from '../../../src/domain/asset.js';
import { anAsset } from '../../support/builders.js';

/** Every SQLite codec: the transfer's tables, the short-lived records no export carries, and blocks (not yet in it). */
const CODECS = [
  ...Object.values(TRANSFER_TABLES).map((table) => table.codec),
  TOTP_ENROLMENT_ROWS,
  CHALLENGE_ROWS,
  ACTOR_BLOCK_ROWS,
];

// The type test. A codec that leaves a column out of its row does not compile…
export const missingColumn = sqliteTable('pairs', { name: 'text', owner: 'text' }).codec<{
  name: string;
  owner: string;
}>({
  // @ts-expect-error -- the row has no `owner`
  toRow: (pair) => ({ name: pair.name }),
  fromRow: (row) => ({ name: row.name, owner: row.owner }),
});

// …nor one whose column holds a value of another type (a Date where the table keeps epoch milliseconds)…
export const wrongType = sqliteTable('times', { at: 'integer' }).codec<{ at: Date }>({
  // @ts-expect-error -- `at` is an integer column
  toRow: (value) => ({ at: value.at }),
  fromRow: (row) => ({ at: new Date(row.at) }),
});

// …nor one that reads back less than the record (a new field of the domain must be read from its column)…
export const partialRecord = sqliteTable('assets', ASSET_ROWS.columns).codec<Asset>({
  toRow: ASSET_ROWS.toRow,
  // @ts-expect-error -- the asset read back has no `sensitive`
  fromRow: (row) => ({ ...ASSET_ROWS.fromRow(row), sensitive: undefined }),
});

// …and a statement cannot name a column the codec does not have.
// @ts-expect-error -- `title` is no column of `assets`
export const unknownColumn = assignments(ASSET_ROWS, ['title']);

describe('the SQLite codecs', () => {
  it('name every column of their tables but those the store fills, with the type and nullability declared', () => {
    const db = new Database(':memory:');
    try {
      migrate(db);
      for (const codec of CODECS) {
        const table = db
          .prepare<[string], { name: string; type: string; notnull: number }>(
            'SELECT name, type, "notnull" FROM pragma_table_info(?)',
          )
          .all(codec.table);
        const declared = table
          .filter((column) => !(codec.storeColumns ?? []).includes(column.name))
          .map((column) => `${column.name} ${column.type.toLowerCase()}${column.notnull ? '' : '?'}`);
        // A codec may be stricter than its table: an INTEGER PRIMARY KEY may be NULL to SQLite (it picks the
        // rowid), and the codec always writes one.
        const written = Object.entries(codec.columns).map(([name, type]) =>
          declared.includes(`${name} ${type}?`) ? `${name} ${type}?` : `${name} ${type}`,
        );

        expect(written.sort(), codec.table).to.deep.equal(declared.sort());
        expect(
          (codec.storeColumns ?? []).every((column) => table.some((c) => c.name === column)),
          codec.table,
        ).to.equal(true);
      }
    } finally {
      db.close();
    }
  });

  it('read back the record they wrote', () => {
    const asset = anAsset({ altText: 'a red square', sensitive: true, deletedAt: new Date(5) });

    expect(ASSET_ROWS.fromRow(ASSET_ROWS.toRow(asset))).to.deep.equal(asset);
  });

  it('update every column of an asset but those fixed at registration', () => {
    expect(assignments(ASSET_ROWS, ['name', 'owner', 'content_hash', 'created_at', 'deleted_at'])).to.equal(
      'media_type = @media_type, url = @url, description = @description, alt_text = @alt_text, ' +
        'sensitive = @sensitive, tags = @tags, updated_at = @updated_at',
    );
  });
});
