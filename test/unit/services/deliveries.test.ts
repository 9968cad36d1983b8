// What Deliveries keeps between the deliveries of one activity: the log entry and the signing key are read once,
// and a read that failed or found nothing is not kept.
import { expect } from 'chai';
import { ActorViews } from '../../../src/application/services/actor-views.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { LruCacheFactory } from '../../../src/adapters/cache/lru-cache-factory.js';
import { openMemoryPersistence } from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { ActivityLog } from '../../../src/application/ports/activity-log.js';
import { Deliveries } from '../../../src/application/services/deliveries.js';
import type { Activity } from '../../../src/domain/activity.js';
import { Urls } from '../../../src/domain/activity-streams.js';
import { anActivity, aUser, aUsername, L2_SERVER } from '../../support/builders.js';
import { ScriptedFederation } from '../../support/use-case-kit.js';

/** A log whose reads the test counts and scripts: each read takes the next answer (the activity when none is left). */
function scriptedLog(activity: Activity) {
  const log = {
    reads: 0,
    answers: [] as ('fail' | 'missing')[],
    async get(): Promise<Activity | null> {
      log.reads++;
      const answer = log.answers.shift();
      if (answer === 'fail') throw new Error('the store is down');
      return answer === 'missing' ? null : activity;
    },
  };
  return log;
}

async function setUp() {
  const store = openMemoryPersistence();
  await store.users.create(aUser({ username: aUsername('alice') }));
  const activity = anActivity({ idx: 3 });
  const log = scriptedLog(activity);
  const federation = new ScriptedFederation();
  const deliveries = new Deliveries(
    log as unknown as ActivityLog,
    store.users,
    federation,
    Urls.of(L2_SERVER),
    new LruCacheFactory(),
    new ActorViews(store.assets),
    { sign: async (document) => document },
    new FixedClock(new Date('2026-11-22T10:00:00.000Z')),
  );
  const deliver = (inbox: string) => deliveries.activity({ idx: 3, inbox });
  return { log, federation, deliver, activity };
}

describe('Deliveries', () => {
  it('reads an activity once for all of its inboxes, also while the first read is under way', async () => {
    const { log, federation, deliver, activity } = await setUp();

    await Promise.all([deliver('https://a.example/inbox'), deliver('https://b.example/inbox')]);
    await deliver('https://c.example/inbox');

    expect(log.reads).to.equal(1);
    expect(federation.delivered.map((d) => d.document)).to.deep.equal([
      activity.document,
      activity.document,
      activity.document,
    ]);
  });

  it('keeps no failed read: the next delivery asks the store again', async () => {
    const { log, deliver } = await setUp();
    log.answers.push('fail');

    const failed = await deliver('https://a.example/inbox').catch((error: Error) => error.message);
    const outcome = await deliver('https://a.example/inbox');

    expect(failed).to.equal('the store is down');
    expect(outcome).to.deep.equal({ kind: 'delivered' });
    expect(log.reads).to.equal(2);
  });

  it('keeps no read that found nothing: the activity is looked for again', async () => {
    const { log, deliver } = await setUp();
    log.answers.push('missing');

    expect(await deliver('https://a.example/inbox')).to.deep.equal({
      kind: 'refused',
      reason: 'no activity 3 in the log',
    });
    expect(await deliver('https://a.example/inbox')).to.deep.equal({ kind: 'delivered' });
    expect(log.reads).to.equal(2);
  });
});
