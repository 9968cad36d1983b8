import { expect } from 'chai';
import { BcryptPasswordHasher } from '../../../src/adapters/crypto/bcrypt-password-hasher.js';
import { HashingLine } from '../../../src/adapters/crypto/hashing-line.js';
import { OverloadedError } from '../../../src/application/ports/errors.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('HashingLine: the bcrypt line measured in seconds of work', () => {
  it('lets a job wait while the work ahead of it fits the bound, and refuses it with the time to drain after', () => {
    // 2 cores, 100 ms a job: 20 jobs waiting are one second of work.
    const line = new HashingLine(2, 0.1);
    expect(line.refusal(19, 1)).to.equal(null);
    expect(line.refusal(20, 1)).to.deep.equal({ retryAfterSeconds: 1 });
    expect(line.refusal(59, 3)).to.equal(null);
    expect(line.refusal(70, 3)).to.deep.equal({ retryAfterSeconds: 4 });
  });

  it('always lets one job per core wait, however slow a job is', () => {
    const line = new HashingLine(2, 60);
    expect(line.refusal(1, 1)).to.equal(null);
    expect(line.refusal(2, 1)).to.deep.equal({ retryAfterSeconds: 60 });
  });

  it('never refuses without a bound, or when every job runs at once', () => {
    expect(new HashingLine(2, 0.1).refusal(10_000, undefined)).to.equal(null);
    expect(new HashingLine(Number.POSITIVE_INFINITY, 0.1).refusal(10_000, 1)).to.equal(null);
  });

  it('learns what a job takes here: the first timing replaces the guess, later ones move the average', () => {
    const line = new HashingLine(1, 10);
    line.timed(0.1);
    expect(line.refusal(9, 1)).to.equal(null);
    expect(line.refusal(10, 1)).to.not.equal(null);
    // Jobs slowed fivefold (other work on the cores) shrink the line the bound allows.
    for (let i = 0; i < 30; i++) line.timed(0.5);
    expect(line.refusal(2, 1)).to.not.equal(null);
  });
});

describe('BcryptPasswordHasher with a bounded line', () => {
  it('refuses hashes and checks at once with OverloadedError and Retry-After once the line holds its bound of work, and takes them again when it drains', async () => {
    const refusals: { waiting: number; retryAfterSeconds: number }[] = [];
    // One core, 50 ms a job assumed, 0.2 s of waiting allowed: one running and four waiting.
    const hasher = new BcryptPasswordHasher(4, 1, {
      maxWaitSeconds: 0.2,
      firstEstimateSeconds: 0.05,
      onRefused: (refusal) => refusals.push(refusal),
    });
    const accepted = Array.from({ length: 5 }, (_, i) => hasher.hash(bytes(`password ${i}`)));
    expect({ running: hasher.running, waiting: hasher.waiting }).to.deep.equal({ running: 1, waiting: 4 });

    const refused = await Promise.allSettled([
      hasher.hash(bytes('one more')),
      hasher.verify(bytes('x'), null),
    ]);
    for (const outcome of refused) {
      expect(outcome.status).to.equal('rejected');
      const error = (outcome as PromiseRejectedResult).reason as OverloadedError;
      expect(error).to.be.instanceOf(OverloadedError);
      expect(error.retryAfterSeconds).to.equal(1);
    }
    expect(refusals).to.deep.equal([
      { waiting: 4, retryAfterSeconds: 1 },
      { waiting: 4, retryAfterSeconds: 1 },
    ]);
    expect(hasher.waiting, 'a refused job never joins the line').to.equal(4);

    const hashes = await Promise.all(accepted);
    expect(await hasher.verify(bytes('password 0'), hashes[0]!)).to.equal(true);
  });

  it('answers an unknown user with one compare against the dummy hash: one job in the line, false', async () => {
    const hasher = new BcryptPasswordHasher(4, 1, { maxWaitSeconds: 60 });
    await hasher.dummy();
    const unknown = hasher.verify(bytes('whatever'), null);
    expect({ running: hasher.running, waiting: hasher.waiting }).to.deep.equal({ running: 1, waiting: 0 });
    expect(await unknown).to.equal(false);
  });
});
