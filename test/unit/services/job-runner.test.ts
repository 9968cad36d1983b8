import { expect } from 'chai';
import { openMemoryPersistence } from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { DeliveryOutcome } from '../../../src/application/ports/delivery-outcome.js';
import type { NewJob } from '../../../src/application/ports/job-queue.js';
import {
  JobRunner,
  type JobHandlers,
  type RunnerLimits,
} from '../../../src/application/services/job-runner.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/domain/delivery-policy.js';
import { activityDeliveryJob, documentDeliveryJob } from '../../../src/domain/jobs.js';
import type { Username } from '../../../src/domain/user.js';
import { FixedClock, SequentialIds } from '../../support/fixed-clock.js';
import { RecordedProblems } from '../../support/use-case-kit.js';

const START = new Date('2026-11-22T10:00:00.000Z');

/** An outcome the test gives when it wants. */
function deferred() {
  let settle!: (outcome: DeliveryOutcome) => void;
  const promise = new Promise<DeliveryOutcome>((resolve) => (settle = resolve));
  return { promise, settle };
}

/** Every handler records the inbox it was given and answers what `answer` says for it. */
function setUp(limits: Partial<RunnerLimits> = {}) {
  const store = openMemoryPersistence();
  const clock = new FixedClock(START);
  const problems = new RecordedProblems();
  const ran: string[] = [];
  let answer: (inbox: string) => Promise<DeliveryOutcome> | DeliveryOutcome = () => ({ kind: 'delivered' });
  const handle = async (inbox: string) => {
    ran.push(inbox);
    return answer(inbox);
  };
  const handlers: JobHandlers = {
    revocation_notice: (notice) => handle(`${notice.l1Server}/auth/revoke`),
    activity_delivery: (delivery) => handle(delivery.inbox),
    document_delivery: (delivery) => handle(delivery.inbox),
    profile_update: (delivery) => handle(delivery.inbox),
  };
  const runner = new JobRunner(
    store.jobs,
    handlers,
    clock,
    new SequentialIds(),
    DEFAULT_RETRY_POLICY,
    problems,
    {
      concurrency: 100,
      perLane: 3,
      leaseMs: 60_000,
      ...limits,
    },
  );
  const enqueue = (jobs: NewJob[]) => store.jobs.enqueue(jobs, clock.now());
  return { store, clock, problems, ran, runner, enqueue, setAnswer: (a: typeof answer) => (answer = a) };
}

const delivery = (host: string, n: number) => activityDeliveryJob(n, `https://${host}/inbox`);

describe('JobRunner', () => {
  it('runs each job with the handler of its kind and removes it once delivered', async () => {
    const { runner, enqueue, ran, store } = setUp();
    await enqueue([
      delivery('a.example', 0),
      documentDeliveryJob({
        signer: 'alice' as Username,
        inbox: 'https://b.example/users/x/inbox',
        document: {},
      }),
    ]);

    expect(await runner.runOnce()).to.equal(2);

    expect(ran).to.have.members(['https://a.example/inbox', 'https://b.example/users/x/inbox']);
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
  });

  it('gives up a job of an unknown kind and reports it as a bug', async () => {
    const { runner, enqueue, problems, store } = setUp();
    await enqueue([{ kind: 'from_a_newer_version', payload: {}, lane: null }]);

    await runner.runOnce();

    expect(problems.errors).to.deep.equal(['job of an unknown kind given up: this is a bug']);
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 1 });
  });

  it('counts a handler that throws as a failed attempt, reported, and retries it', async () => {
    const { runner, enqueue, problems, store, setAnswer, clock } = setUp();
    await enqueue([delivery('a.example', 0)]);
    setAnswer(() => {
      throw new Error('boom');
    });

    await runner.runOnce();
    expect(problems.errors).to.deep.equal(['job handler threw; the job is retried']);
    setAnswer(() => ({ kind: 'delivered' }));
    clock.advance(2_000);

    expect(await runner.runOnce()).to.equal(1);
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
  });

  it('gives up at once a job refused for good, and keeps it for inspection', async () => {
    const { runner, enqueue, store, setAnswer, problems } = setUp();
    await enqueue([delivery('a.example', 0)]);
    setAnswer(() => ({ kind: 'refused', reason: 'answered 404' }));

    await runner.runOnce();

    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 1 });
    expect(problems.warnings).to.deep.equal(['job given up']);
  });

  it('completes a job dropped unsent (a domain rule): neither retried, nor kept, nor reported', async () => {
    const { runner, enqueue, store, setAnswer, problems, clock, ran } = setUp();
    await enqueue([delivery('blocked.example', 0), delivery('blocked.example', 1)]);
    setAnswer(() => ({ kind: 'dropped', reason: 'L2 does not federate with this domain' }));

    await runner.runOnce();
    clock.advance(60 * 60_000);
    await runner.runOnce();

    expect(ran).to.have.length(2);
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
    expect(problems.warnings).to.deep.equal([]);
  });

  it('keeps going past a job that never answers: it holds one slot, the others run', async () => {
    const { runner, enqueue, store, setAnswer, ran } = setUp({ concurrency: 4, untried: 4 });
    const hanging = deferred();
    setAnswer((inbox) => (inbox.includes('dead') ? hanging.promise : { kind: 'delivered' }));
    await enqueue([
      delivery('dead.example', 0),
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((h, i) => delivery(`${h}.example`, i)),
    ]);

    // Starts as much as fits, again and again, as the worker does while jobs settle.
    for (let i = 0; i < 5; i++) {
      await runner.start();
      await new Promise((resolve) => setImmediate(resolve));
    }

    expect(ran.filter((inbox) => !inbox.includes('dead'))).to.have.length(6);
    expect(runner.inFlight).to.equal(1);
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 0 });
    hanging.settle({ kind: 'delivered' });
    await runner.settled();
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
  });

  it('runs one job at a time in a lane that has not answered yet, then up to the per-lane limit', async () => {
    const { runner, enqueue, setAnswer } = setUp({ perLane: 3 });
    const answers = Array.from({ length: 6 }, () => deferred());
    let call = 0;
    setAnswer(() => answers[call++]!.promise);
    await enqueue(Array.from({ length: 6 }, (_, n) => delivery('a.example', n)));

    expect(await runner.start()).to.equal(1);
    expect(await runner.start(), 'the lane is unproven').to.equal(0);
    answers[0]!.settle({ kind: 'delivered' });
    await new Promise((resolve) => setImmediate(resolve));
    const started = [await runner.start(), await runner.start(), await runner.start(), await runner.start()];

    expect(started, 'one per claim, up to 3 in flight').to.deep.equal([1, 1, 1, 0]);
    expect(runner.inFlight).to.equal(3);
    for (const answer of answers) answer.settle({ kind: 'delivered' });
    await runner.settled();
  });

  it('backs a failing lane off as a whole while other lanes go on, longer after each failure in a row', async () => {
    const { runner, enqueue, clock, setAnswer, ran, store } = setUp();
    setAnswer((inbox) =>
      inbox.includes('down') ? { kind: 'failed', reason: 'answered 503' } : { kind: 'delivered' },
    );
    await enqueue([delivery('down.example', 0), delivery('down.example', 1), delivery('up.example', 2)]);

    await runner.runOnce();
    expect(ran).to.deep.equal(['https://down.example/inbox', 'https://up.example/inbox']);

    // The lane waits 2 s (the first retry delay) as a whole: neither its failed job nor the other one runs before.
    clock.advance(1_999);
    await enqueue([delivery('down.example', 3)]);
    expect(await runner.runOnce()).to.equal(0);
    clock.advance(1);
    expect(await runner.runOnce(), 'one job of the lane: it is failing').to.equal(1);

    // A second failure in a row: 4 s.
    clock.advance(3_999);
    expect(await runner.runOnce()).to.equal(0);
    clock.advance(1);
    setAnswer(() => ({ kind: 'delivered' }));
    for (let i = 0; i < 3; i++) await runner.runOnce();
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
  });

  it('backs a failing lane off for every worker on the store, not only the one that saw it fail', async () => {
    const { runner, enqueue, clock, setAnswer, ran, store } = setUp();
    const other = new JobRunner(
      store.jobs,
      {
        revocation_notice: async () => ({ kind: 'delivered' }),
        activity_delivery: async (d) => (ran.push(`other ${d.inbox}`), { kind: 'delivered' }),
        document_delivery: async () => ({ kind: 'delivered' }),
        profile_update: async () => ({ kind: 'delivered' }),
      },
      clock,
      new SequentialIds(),
      DEFAULT_RETRY_POLICY,
      new RecordedProblems(),
    );
    setAnswer(() => ({ kind: 'failed', reason: 'answered 503' }));
    await enqueue([delivery('down.example', 0), delivery('down.example', 1)]);
    await runner.runOnce();
    await enqueue([delivery('down.example', 2), delivery('up.example', 3)]);

    clock.advance(1_999);
    expect(await other.runOnce(), 'the other worker takes only the lane that is up').to.equal(1);
    clock.advance(1);
    expect(await other.runOnce()).to.equal(1);

    expect(ran).to.deep.equal([
      'https://down.example/inbox',
      'other https://up.example/inbox',
      'other https://down.example/inbox',
    ]);
  });

  it('leaves half the slots to hosts that answer, however many hosts hang, and serves those first', async () => {
    const { runner, enqueue, setAnswer, ran } = setUp({ concurrency: 4 });
    const hanging = deferred();
    setAnswer((inbox) => (inbox.includes('dead') ? hanging.promise : { kind: 'delivered' }));
    await enqueue([delivery('live.example', 0)]);
    await runner.runOnce();

    await enqueue(Array.from({ length: 8 }, (_, n) => delivery(`dead${n}.example`, n)));
    await enqueue(Array.from({ length: 6 }, (_, n) => delivery('live.example', 10 + n)));
    for (let i = 0; i < 8; i++) {
      await runner.start();
      await new Promise((resolve) => setImmediate(resolve));
    }

    expect(ran.filter((inbox) => inbox.includes('live'))).to.have.length(7);
    expect(
      ran.filter((inbox) => inbox.includes('dead')),
      'two of four slots for hosts not proven',
    ).to.have.length(2);
    expect(runner.inFlight).to.equal(2);
    hanging.settle({ kind: 'delivered' });
    await runner.settled();
  });

  it('keeps at most `concurrency` jobs in flight', async () => {
    const { runner, enqueue, setAnswer } = setUp({ concurrency: 3, untried: 3 });
    const hanging = deferred();
    setAnswer(() => hanging.promise);
    await enqueue(Array.from({ length: 10 }, (_, n) => delivery(`h${n}.example`, n)));

    expect(await runner.start()).to.equal(3);
    expect(await runner.start()).to.equal(0);
    expect(runner.inFlight).to.equal(3);
    hanging.settle({ kind: 'delivered' });
    await runner.settled();
  });
});
