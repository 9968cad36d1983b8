import { expect } from 'chai';
import { openMemoryPersistence } from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { ActivityLog } from '../../../src/application/ports/activity-log.js';
import type {
  ActivitySigner,
  JsonLdDocument,
  SigningKey,
} from '../../../src/application/ports/activity-signer.js';
import { PublishActivity } from '../../../src/application/services/publish-activity.js';
import { Urls } from '../../../src/domain/activity-streams.js';
import type { AssetFields } from '../../../src/domain/asset.js';
import { activityFor } from '../../support/activity-writers.js';
import {
  aFollower,
  anAcceptJob,
  anAsset,
  anAssetName,
  aUser,
  aUsername,
  MINUTE,
} from '../../support/builders.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { testTransparencyLog } from '../../support/tlog-test-key.js';
import { TransparencyLogUnavailableError } from '../../../src/application/ports/errors.js';

const START = new Date('2026-11-22T10:00:00.000Z');

/** Signs by stamping the key and time on the document, recording what it was asked to sign. */
class RecordingSigner implements ActivitySigner {
  readonly signed: JsonLdDocument[] = [];
  async sign(document: JsonLdDocument, key: SigningKey, created: Date): Promise<JsonLdDocument> {
    this.signed.push(document);
    return { ...document, signature: { creator: key.keyId, created: created.toISOString() } };
  }
}

const fields: AssetFields = {
  contentHash: `sha256:${'a'.repeat(64)}`,
  mediaType: 'image/png',
  url: 'https://cdn.example/sunset.png',
  description: 'Red sky',
  altText: null,
  sensitive: false,
  tags: ['sky'],
};

function setUp(log?: (store: ReturnType<typeof openMemoryPersistence>) => ActivityLog) {
  const store = openMemoryPersistence();
  const clock = new FixedClock(START);
  const signer = new RecordingSigner();
  const signal = { count: 0, jobsQueued: () => void signal.count++ };
  const urls = Urls.of('https://l2.example');
  const publish = new PublishActivity(
    log ? log(store) : store.activities,
    store.users,
    signer,
    clock,
    urls,
    signal,
    testTransparencyLog(store.transparencyLog),
  );
  const alice = aUser({ username: aUsername('alice') });
  return { store, clock, signer, signal, publish, alice };
}

describe('PublishActivity', () => {
  it('registers an asset at the publish moment and appends its Create at the next idx, signed with the owner key', async () => {
    const { store, publish, alice, signer, signal } = setUp();
    const name = anAssetName('sunset');

    const published = await publish.execute({
      publisher: alice,
      edit: { kind: 'create', name, owner: alice.username, fields },
    });

    if (!published.ok) throw new Error(published.error);
    const { activity, asset } = published.value;
    expect(asset).to.deep.equal({
      name,
      owner: alice.username,
      ...fields,
      createdAt: START,
      updatedAt: START,
      deletedAt: null,
    });
    expect(activity).to.deep.include({
      idx: 0,
      type: 'Create',
      actor: 'alice',
      object: 'sunset',
      published: START,
    });
    expect(activity.document).to.deep.include({
      id: 'https://l2.example/activities/0',
      signature: { creator: 'https://l2.example/users/alice#main-key', created: START.toISOString() },
    });
    expect(signer.signed).to.have.length(1);
    expect(await store.activities.get(0)).to.deep.equal(activity);
    expect(await store.assets.findByName(name)).to.deep.equal(asset);
    expect(signal.count).to.equal(1);
  });

  it('builds and signs the activity again at the new idx when another writer took its idx', async () => {
    let raced = false;
    const { store, publish, alice, signer } = setUp((s) => ({
      ...s.activities,
      nextIdx: () => s.activities.nextIdx(),
      get: (idx) => s.activities.get(idx),
      listOlder: (f, b, l) => s.activities.listOlder(f, b, l),
      listNewer: (f, a, l) => s.activities.listNewer(f, a, l),
      count: (f) => s.activities.count(f),
      append: async (activity, change) => {
        if (!raced) {
          // Another process appends at this idx between our read of it and our append.
          raced = true;
          const other = anAsset({ owner: aUsername('bob') });
          await s.activities.append(activityFor({ kind: 'create', asset: other }, activity.idx), {
            kind: 'create',
            asset: other,
          });
        }
        return s.activities.append(activity, change);
      },
    }));

    const published = await publish.execute({
      publisher: alice,
      edit: { kind: 'create', name: anAssetName('sunset'), owner: alice.username, fields },
    });

    expect(published.ok && published.value.activity.idx).to.equal(1);
    expect(signer.signed.map((d) => d.id)).to.deep.equal([
      'https://l2.example/activities/0',
      'https://l2.example/activities/1',
    ]);
    expect((await store.activities.get(1))?.object).to.equal('sunset');
  });

  it('answers the refusal of the store and writes nothing: a name in use', async () => {
    const { store, publish, alice, signal } = setUp();
    const edit = { kind: 'create' as const, name: anAssetName('taken'), owner: alice.username, fields };
    await publish.execute({ publisher: alice, edit });

    const again = await publish.execute({ publisher: alice, edit });

    expect(again).to.deep.equal({ ok: false, error: 'asset_exists' });
    expect(await store.activities.nextIdx()).to.equal(1);
    expect(signal.count).to.equal(1);
  });

  it('publishes an Update that keeps the content hash and dates the change, and refuses one made from a stale read', async () => {
    const { store, publish, alice, clock } = setUp();
    const created = await publish.execute({
      publisher: alice,
      edit: { kind: 'create', name: anAssetName('sunset'), owner: alice.username, fields },
    });
    if (!created.ok) throw new Error(created.error);
    clock.advance(MINUTE);
    const edited = { ...fields, contentHash: `sha256:${'b'.repeat(64)}`, description: 'Purple sky' };

    const updated = await publish.execute({
      publisher: alice,
      edit: { kind: 'update', current: created.value.asset, fields: edited },
    });
    const stale = await publish.execute({
      publisher: alice,
      edit: { kind: 'update', current: created.value.asset, fields },
    });

    if (!updated.ok) throw new Error(updated.error);
    expect(updated.value.asset).to.deep.include({
      contentHash: fields.contentHash,
      description: 'Purple sky',
      createdAt: START,
      updatedAt: clock.now(),
    });
    expect(updated.value.activity.type).to.equal('Update');
    expect(stale).to.deep.equal({ ok: false, error: 'asset_changed' });
    expect(await store.assets.findByName(anAssetName('sunset'))).to.deep.equal(updated.value.asset);
  });

  it('publishes a Delete carrying a Tombstone dated at the publish moment', async () => {
    const { publish, alice, clock } = setUp();
    const created = await publish.execute({
      publisher: alice,
      edit: { kind: 'create', name: anAssetName('sunset'), owner: alice.username, fields },
    });
    if (!created.ok) throw new Error(created.error);
    clock.advance(MINUTE);

    const deleted = await publish.execute({
      publisher: alice,
      edit: { kind: 'delete', current: created.value.asset },
    });

    if (!deleted.ok) throw new Error(deleted.error);
    expect(deleted.value.asset.deletedAt).to.deep.equal(clock.now());
    expect(deleted.value.activity.document.object).to.deep.equal({
      id: 'https://l2.example/assets/sunset',
      type: 'Tombstone',
      deleted: clock.now().toISOString(),
    });
  });

  it('takes turns within a process: 10 concurrent publishes get idx 0 to 9 with one signature each', async () => {
    const { publish, alice, signer } = setUp();

    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        publish.execute({
          publisher: alice,
          edit: { kind: 'create', name: anAssetName(`a${i}`), owner: alice.username, fields },
        }),
      ),
    );

    expect(results.map((r) => r.ok && r.value.activity.idx)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(signer.signed).to.have.length(10);
  });

  it("queues the activity's delivery to each follower inbox with it, and wakes the worker", async () => {
    const { store, publish, alice, signal } = setUp();
    const follower = aFollower({ username: alice.username });
    await store.followers.add(follower, anAcceptJob(follower), START);

    await publish.execute({
      publisher: alice,
      edit: { kind: 'create', name: anAssetName('sunset'), owner: alice.username, fields },
    });

    const jobs = await store.jobs.claim({
      now: START,
      leaseMs: MINUTE,
      limit: 10,
      leaseId: 'l',
      skipLanes: [],
    });
    const claimedAgain = await store.jobs.claim({ now: START, leaseMs: MINUTE, limit: 10, leaseId: 'm' });
    const kinds = [...jobs, ...claimedAgain].map((j) => [j.kind, j.payload]);
    expect(kinds).to.deep.include(['activity_delivery', { idx: 0, inbox: follower.sharedInbox }]);
    expect(signal.count).to.equal(1);
  });

  describe('and the transparency log (API.md §8)', () => {
    it('answers only once a signed checkpoint covers the activity', async () => {
      const { store, publish, alice } = setUp();
      for (const name of ['one', 'two', 'three']) {
        const published = await publish.execute({
          publisher: alice,
          edit: { kind: 'create', name: anAssetName(name), owner: alice.username, fields },
        });
        if (!published.ok) throw new Error(published.error);
        const kept = (await store.transparencyLog.state()).checkpoint;
        expect(kept?.size).to.be.above(published.value.activity.idx);
      }
    });

    it('refuses, before anything is stored, an activity whose entry would exceed 65,535 bytes', async () => {
      const { store, publish, alice } = setUp();
      const padding: ActivitySigner = {
        sign: async (document) => ({ ...document, signature: { padding: 'x'.repeat(65_535) } }),
      };
      const padded = new PublishActivity(
        store.activities,
        store.users,
        padding,
        new FixedClock(START),
        Urls.of('https://l2.example'),
        { jobsQueued: () => {} },
        testTransparencyLog(store.transparencyLog),
      );

      const refused = await padded.execute({
        publisher: alice,
        edit: { kind: 'create', name: anAssetName('huge'), owner: alice.username, fields },
      });

      expect(refused).to.deep.equal({ ok: false, error: 'entry_too_large' });
      expect(await store.activities.nextIdx()).to.equal(0);
      expect(await store.assets.findByName(anAssetName('huge'))).to.equal(null);
      const fits = await publish.execute({
        publisher: alice,
        edit: { kind: 'create', name: anAssetName('huge'), owner: alice.username, fields },
      });
      expect(fits.ok).to.equal(true);
    });

    it('refuses every write, storing nothing, while the log does not match the store', async () => {
      const { store, publish, alice } = setUp();
      await publish.execute({
        publisher: alice,
        edit: { kind: 'create', name: anAssetName('one'), owner: alice.username, fields },
      });
      store.db.activities[0] = { ...store.db.activities[0]!, document: '{"changed":true}' };
      const log = testTransparencyLog(store.transparencyLog);
      await log.start().catch(() => {});
      const guarded = new PublishActivity(
        store.activities,
        store.users,
        new RecordingSigner(),
        new FixedClock(START),
        Urls.of('https://l2.example'),
        { jobsQueued: () => {} },
        log,
      );

      const error = await guarded
        .execute({
          publisher: alice,
          edit: { kind: 'create', name: anAssetName('two'), owner: alice.username, fields },
        })
        .then(
          () => null,
          (e: unknown) => e,
        );

      expect(error).to.be.instanceOf(TransparencyLogUnavailableError);
      expect(await store.activities.nextIdx()).to.equal(1);
    });
  });
});
