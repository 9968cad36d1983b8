// The export file of `l2 store export` / `import` (JSON Lines): version 2 carries profiles, alt text and sensitive
// assets byte for byte (issue 25), version 3 each activity's exact entry text and the transparency log's origin and
// checkpoint (issue 27), version 4 the operator's domain rules (issue 37); files of earlier versions, written before
// them, still import, with their defaults.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportStore, importStore } from '../../../src/adapters/cli/store-commands.js';
import { FORMAT_VERSION, TransferFileError } from '../../../src/adapters/cli/transfer-format.js';
import { openMemoryPersistence } from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import { openSqlitePersistence } from '../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { Persistence } from '../../../src/application/ports/persistence.js';
import type { TransferRecord } from '../../../src/application/ports/store-transfer.js';
import type { AssetName } from '../../../src/domain/asset.js';
import { EMPTY_PROFILE } from '../../../src/domain/profile.js';
import type { Username } from '../../../src/domain/user.js';
import {
  collect,
  EMPTY_TRANSFER_PROFILE,
  streamOf,
  transferRecords,
  ACCOUNT_SECURITY_KINDS,
  asVersion3,
  FORMAT_4_KINDS,
  withoutAccountSecurity,
  withoutProfilesAndAltText,
} from '../../support/transfer-records.js';
import { testTransparencyLog } from '../../support/tlog-test-key.js';

const EXPORTED_AT = new Date('2026-11-25T12:00:00.000Z');

/** The lines of a file of these records at `version` (the current one unless said). */
const readFileLines = (records: readonly TransferRecord[], version: number = FORMAT_VERSION): string[] => [
  JSON.stringify({ format: 'l2-store', version, exportedAt: EXPORTED_AT.toISOString() }),
  ...records.map((r) => JSON.stringify(r)),
  JSON.stringify({ end: true, records: records.length }),
];

describe('the store export file', () => {
  let dir: string;
  const stores: Persistence[] = [];
  const open = (kind: 'memory' | 'sqlite'): Persistence => {
    const store = kind === 'memory' ? openMemoryPersistence() : openSqlitePersistence(':memory:');
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-transfer-format-'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The lines of a file as a version-1 or -2 export wrote it: each activity's parsed `document` instead of its entry
   * text, no transparency log record, no account security; version 1 also without the fields of issue 25.
   */
  function oldLines(records: readonly TransferRecord[], version: 1 | 2 = 1): string[] {
    const old = withoutAccountSecurity(version === 1 ? withoutProfilesAndAltText(records) : records)
      .filter((r) => r.record !== 'transparency_log')
      .map((r) => {
        if (r.record !== 'activity') return r;
        const { entry, ...rest } = r;
        return { ...rest, document: JSON.parse(entry) as unknown };
      });
    return [
      JSON.stringify({ format: 'l2-store', version, exportedAt: EXPORTED_AT.toISOString() }),
      ...old.map((r) => JSON.stringify(r)),
      JSON.stringify({ end: true, records: old.length }),
    ];
  }
  const versionOneLines = (records: readonly TransferRecord[]) => oldLines(records, 1);
  /** What a store holding an old file's records exports: the log has no origin or checkpoint yet. */
  const withoutCheckpoint = (r: TransferRecord): TransferRecord =>
    r.record === 'transparency_log' ? { ...r, origin: null, checkpoint: null } : r;

  it('is written at version 4, and carries profiles, alt text, sensitive, entries, the checkpoint, account security and domain rules from store to store byte for byte', async () => {
    const records = transferRecords({ users: 14, activities: 120 });
    const source = open('sqlite');
    await source.transfer.import(streamOf(records));
    const first = join(dir, 'first.jsonl');
    await exportStore(source.transfer, first, EXPORTED_AT);

    for (const kind of ['memory', 'sqlite'] as const) {
      const target = open(kind);
      await importStore(target.transfer, first);
      const again = join(dir, `${kind}.jsonl`);
      await exportStore(target.transfer, again, EXPORTED_AT);

      expect(readFileSync(again, 'utf8'), kind).to.equal(readFileSync(first, 'utf8'));
    }
    const lines = readFileSync(first, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).to.deep.include({ format: 'l2-store', version: FORMAT_VERSION });
    expect(FORMAT_VERSION).to.equal(4);
    for (const kind of [...ACCOUNT_SECURITY_KINDS, ...FORMAT_4_KINDS])
      expect(
        lines.some((line) => line.startsWith(`{"record":"${kind}"`)),
        kind,
      ).to.equal(true);
    expect(lines.slice(1, -1).map((line) => JSON.parse(line) as unknown)).to.deep.equal(records);
  });

  for (const kind of ['memory', 'sqlite'] as const)
    it(`imports a version-1 file into ${kind}: the empty profile at version 0, no alt text, not sensitive`, async () => {
      const records = transferRecords({ users: 14, activities: 120 });
      const file = join(dir, 'old.jsonl');
      writeFileSync(file, `${versionOneLines(records).join('\n')}\n`);
      const store = open(kind);

      const counts = await importStore(store.transfer, file);

      expect(counts).to.deep.include({ user: 14, activity: 120 });
      expect(await collect(store.transfer.export())).to.deep.equal(
        withoutAccountSecurity(records).map((r) =>
          r.record === 'user'
            ? { ...r, profile: EMPTY_TRANSFER_PROFILE, profileVersion: 0 }
            : r.record === 'asset'
              ? { ...r, altText: null, sensitive: false }
              : withoutCheckpoint(r),
        ),
      );
      expect(await store.users.findProfile('user_1' as Username)).to.deep.include({
        profile: EMPTY_PROFILE,
        profileVersion: 0,
      });
      expect(await store.assets.findByName('asset-1' as AssetName)).to.deep.include({
        altText: null,
        sensitive: false,
      });
      expect(await store.assets.count({ tag: 'ART' })).to.be.greaterThan(0);
    });

  for (const kind of ['memory', 'sqlite'] as const)
    it(`imports a version-2 file into ${kind}: each document's JSON text is its entry, the log's root is theirs, and accounts are protected by their password alone`, async () => {
      const records = transferRecords({ users: 4, activities: 300 });
      const file = join(dir, 'v2.jsonl');
      writeFileSync(file, `${oldLines(records, 2).join('\n')}\n`);
      const store = open(kind);

      await importStore(store.transfer, file);

      expect(await collect(store.transfer.export())).to.deep.equal(
        withoutAccountSecurity(records).map(withoutCheckpoint),
      );
      expect(await store.accountSecurity.factors('user_1' as Username)).to.deep.equal({
        totp: null,
        enrolment: null,
        recoveryCodes: [],
        passkeys: [],
      });
      expect(await store.accountSecurity.history('user_1' as Username, 10)).to.deep.equal([]);
      const service = testTransparencyLog(store.transparencyLog);
      await service.start();
      const signed = records.find((r) => r.record === 'transparency_log');
      expect((await service.latest())?.note).to.equal(
        signed?.record === 'transparency_log' ? signed.checkpoint?.note : undefined,
      );
    });

  for (const kind of ['memory', 'sqlite'] as const)
    it(`imports a version-3 file into ${kind}: no follow request, actor block or domain rule, everything else as it was`, async () => {
      const records = transferRecords({ users: 14, activities: 120 });
      const file = join(dir, 'v3.jsonl');
      writeFileSync(file, `${readFileLines(asVersion3(records), 3).join('\n')}\n`);
      const store = open(kind);

      const counts = await importStore(store.transfer, file);

      expect(counts).to.deep.include({
        user: 14,
        activity: 120,
        follow_request: 0,
        actor_block: 0,
        domain_rule: 0,
      });
      expect(await store.actorBlocks.count({ username: 'user_0' as Username })).to.equal(0);
      expect(await store.followRequests.count({ username: 'user_2' as Username })).to.equal(0);
      expect(await store.domainRules.list()).to.deep.equal([]);
      expect(await collect(store.transfer.export())).to.deep.equal(asVersion3(records));
    });

  it('imports a version-3 file whose profiles do not say whether follows wait for approval: every account is unlocked', async () => {
    const records = asVersion3(transferRecords({ users: 4, activities: 5 }));
    const unsaid = records.map((r) => {
      if (r.record !== 'user' || r.profile === undefined) return r;
      const { manuallyApprovesFollowers: _, ...profile } = r.profile;
      return { ...r, profile };
    });
    const file = join(dir, 'v3-profiles.jsonl');
    writeFileSync(file, `${readFileLines(unsaid as TransferRecord[], 3).join('\n')}\n`);
    expect(readFileSync(file, 'utf8')).to.not.include('manuallyApprovesFollowers');
    const store = open('sqlite');

    await importStore(store.transfer, file);

    const user1 = records.find((r) => r.record === 'user' && r.username === 'user_1');
    expect(user1?.record === 'user' && user1.profile?.manuallyApprovesFollowers).to.equal(true);
    expect((await store.users.findProfile('user_1' as Username))?.profile).to.deep.include({
      manuallyApprovesFollowers: false,
    });
    expect(await collect(store.transfer.export())).to.deep.equal(
      records.map((r) =>
        r.record === 'user' && r.profile
          ? { ...r, profile: { ...r.profile, manuallyApprovesFollowers: false } }
          : r,
      ),
    );
  });

  it('refuses a domain rule that is not one, naming the field', async () => {
    const lines = readFileLines(transferRecords({ users: 3, activities: 5 }));
    const at = lines.findIndex((line) => line.includes('"record":"domain_rule"'));
    const changed = [...lines];
    changed[at] = JSON.stringify({ ...(JSON.parse(lines[at]!) as object), kind: 'silence' });
    const file = join(dir, 'bad-rule.jsonl');
    writeFileSync(file, `${changed.join('\n')}\n`);
    const store = open('sqlite');

    const refused = await importStore(store.transfer, file).then(
      () => null,
      (error: unknown) => error,
    );

    expect((refused as Error).message).to.match(new RegExp(`^line ${at + 1}: not a record: kind `));
    expect(await store.users.count()).to.equal(0);
  });

  it('refuses an activity with neither its entry nor its document, or an entry that is no JSON object', async () => {
    const lines = readFileLines(transferRecords({ users: 3, activities: 5 }));
    const at = lines.findIndex((line) => line.includes('"record":"activity"'));
    for (const [change, message] of [
      [
        (r: Record<string, unknown>) => ({ ...r, entry: undefined }),
        /^line \d+: not a record: entry an activity carries its entry/,
      ],
      [
        (r: Record<string, unknown>) => ({ ...r, entry: '[1,2]' }),
        /^line \d+: not a record: entry not the JSON text of a document/,
      ],
    ] as const) {
      const changed = [...lines];
      changed[at] = JSON.stringify(change(JSON.parse(lines[at]!) as Record<string, unknown>));
      const file = join(dir, 'bad-activity.jsonl');
      writeFileSync(file, `${changed.join('\n')}\n`);
      const refused = await importStore(open('sqlite').transfer, file).then(
        () => null,
        (error: unknown) => error,
      );
      expect((refused as Error).message).to.match(message);
    }
  });

  it('refuses a file of a version it does not read, writing nothing', async () => {
    const lines = versionOneLines(transferRecords({ users: 3, activities: 5 }));
    const file = join(dir, 'future.jsonl');
    writeFileSync(
      file,
      `${[lines[0]!.replace('"version":1', '"version":5'), ...lines.slice(1)].join('\n')}\n`,
    );
    const store = open('sqlite');

    const refused = await importStore(store.transfer, file).then(
      () => null,
      (error: unknown) => error,
    );

    expect(refused).to.be.instanceOf(TransferFileError);
    expect((refused as Error).message).to.equal('line 1: not an l2-store file of version 1, 2, 3 or 4');
    expect(await store.users.count()).to.equal(0);
  });

  it('refuses a profile that is not one, naming the field', async () => {
    const lines = versionOneLines(transferRecords({ users: 3, activities: 5 }));
    const user = { ...(JSON.parse(lines[1]!) as object), profile: { displayName: 'half a profile' } };
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, `${[lines[0], JSON.stringify(user), ...lines.slice(2)].join('\n')}\n`);

    const refused = await importStore(open('sqlite').transfer, file).then(
      () => null,
      (error: unknown) => error,
    );

    expect((refused as Error).message).to.match(/^line 2: not a record: profile\.bio/);
  });
});
