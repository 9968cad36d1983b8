import bcrypt from 'bcrypt';
import { expect } from 'chai';
import {
  BcryptPasswordHasher,
  type BcryptLineOptions,
} from '../../../src/adapters/crypto/bcrypt-password-hasher.js';
import { clientShare } from '../../../src/adapters/crypto/fair-hashing-queue.js';
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

  it('learns what a check takes to answer, its wait included: what a job takes until one was timed', () => {
    const line = new HashingLine(1, 0.1);
    expect(line.answerSeconds).to.equal(0.1);
    line.answered(0.5);
    expect(line.answerSeconds).to.equal(0.5);
    line.answered(1);
    expect(line.answerSeconds).to.be.closeTo(0.6, 1e-9);
  });
});

describe('clientShare: whose share of the bcrypt line a check holds', () => {
  it('counts an IPv6 /64 as the /56 around it (one home), an IPv4 address and anything else as itself', () => {
    expect(clientShare('2001:db8:77:1f::/64')).to.equal('2001:db8:77::/56');
    expect(clientShare('2001:db8:77:ff::/64')).to.equal('2001:db8:77::/56');
    expect(clientShare('2001:db8:77:100::/64')).to.equal('2001:db8:77:100::/56');
    expect(clientShare('198.51.100.7')).to.equal('198.51.100.7');
    expect(clientShare('2001:db8::/48')).to.equal('2001:db8::/48');
    expect(clientShare('unreadable')).to.equal('unreadable');
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
      // Refused before any compare: the hash is never read.
      hasher.verify(bytes('x'), `$2b$04$${'a'.repeat(53)}`, '198.51.100.1'),
    ]);
    for (const outcome of refused) {
      expect(outcome.status).to.equal('rejected');
      const error = (outcome as PromiseRejectedResult).reason as OverloadedError;
      expect(error).to.be.instanceOf(OverloadedError);
      expect(error.retryAfterSeconds).to.equal(1);
    }
    expect(refusals).to.deep.equal([
      { reason: 'line_full', waiting: 4, retryAfterSeconds: 1 },
      { reason: 'line_full', waiting: 4, retryAfterSeconds: 1 },
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

  it('gives the core to the clients in turn: one client’s many checks delay another’s by one check, not all', async () => {
    const hasher = new BcryptPasswordHasher(4, 1, { maxWaitSeconds: 60, firstEstimateSeconds: 0.05 });
    const hash = await hasher.hash(bytes('the password'));
    const answered: string[] = [];
    const check = (who: string, address: string) =>
      hasher.verify(bytes('a guess'), hash, address).then(() => answered.push(who));
    // A home (one IPv6 /56, four /64s) sends five checks; another client one, after them.
    const home = [1, 2, 3, 4, 5].map((n) => check(`home ${n}`, `2001:db8:77:${n}::/64`));
    const other = check('other', '198.51.100.7');
    expect({ running: hasher.running, waiting: hasher.waiting }).to.deep.equal({ running: 1, waiting: 5 });

    await Promise.all([...home, other]);
    expect(answered).to.deep.equal(['home 1', 'home 2', 'other', 'home 3', 'home 4', 'home 5']);
  });

  it('makes room in a full line by turning away the newest check of the client holding most of it', async () => {
    const refusals: unknown[] = [];
    // One core, 50 ms a check assumed, 0.2 s of waiting allowed: one running and four waiting.
    const hasher = new BcryptPasswordHasher(4, 1, {
      maxWaitSeconds: 0.2,
      firstEstimateSeconds: 0.05,
      onRefused: (refusal) => refusals.push(refusal),
    });
    // Hashed outside the hasher, so that its estimate stays the assumed 50 ms a check.
    const hash = bcrypt.hashSync('the password', 4);
    const outcome = (check: Promise<boolean>) =>
      check.then(
        (matched) => matched,
        (error: unknown) => error,
      );
    const home = [1, 2, 3, 4, 5].map((n) =>
      outcome(hasher.verify(bytes('a guess'), hash, `2001:db8:77:${n}::/64`)),
    );
    expect({ running: hasher.running, waiting: hasher.waiting }).to.deep.equal({ running: 1, waiting: 4 });

    const elsewhere = outcome(hasher.verify(bytes('the password'), hash, '198.51.100.7'));
    const homeAgain = outcome(hasher.verify(bytes('a guess'), hash, '2001:db8:77:6::/64'));

    expect(hasher.waiting, 'the line stays at its bound').to.equal(4);
    expect(await elsewhere, 'another client’s check is answered').to.equal(true);
    const homeAnswers = await Promise.all([...home, homeAgain]);
    expect(homeAnswers.slice(0, 4)).to.deep.equal([false, false, false, false]);
    for (const refused of homeAnswers.slice(4)) {
      expect(refused).to.be.instanceOf(OverloadedError);
      expect((refused as OverloadedError).retryAfterSeconds).to.equal(1);
    }
    expect(refusals).to.deep.equal([
      { reason: 'client_share', waiting: 4, retryAfterSeconds: 1 },
      { reason: 'client_share', waiting: 4, retryAfterSeconds: 1 },
    ]);
  });

  describe('an unknown user while no core of its share is free', () => {
    const build = (options: BcryptLineOptions = {}) => {
      const waits: number[] = [];
      let shed = 0;
      const hasher = new BcryptPasswordHasher(4, 2, {
        maxWaitSeconds: 60,
        firstEstimateSeconds: 0.05,
        onShed: () => shed++,
        delay: async (seconds) => void waits.push(seconds),
        ...options,
      });
      return { hasher, waits, shed: () => shed };
    };

    it('is answered false without a compare, after what a check takes to answer here, and leaves the other core to a real login', async () => {
      const { hasher, waits, shed } = build();
      const hash = await hasher.hash(bytes('the password'));
      // Half the cores (here one of two) may compare against the dummy hash; the second unknown user gets none.
      const first = hasher.verify(bytes('a guess'), null, '198.51.100.1');
      const second = hasher.verify(bytes('a guess'), null, '198.51.100.2');
      expect({ running: hasher.running, waiting: hasher.waiting }).to.deep.equal({ running: 1, waiting: 0 });
      expect(shed()).to.equal(1);
      expect(await second).to.equal(false);
      expect(waits, 'one wait, as long as a check takes').to.have.length(1);
      expect(waits[0]).to.be.above(0);

      const real = hasher.verify(bytes('the password'), hash, '198.51.100.3');
      expect(hasher.running, 'the real login runs at once').to.equal(2);
      expect(await real).to.equal(true);
      expect(await first).to.equal(false);
    });

    it('is never refused, however full the line: answered false from the timer, nothing joins the line', async () => {
      const refusals: unknown[] = [];
      const { hasher, shed } = build({ maxWaitSeconds: 0.2, onRefused: (refusal) => refusals.push(refusal) });
      // Two cores, 50 ms a job assumed, 0.2 s of waiting allowed: two running and eight waiting.
      const accepted = Array.from({ length: 10 }, (_, i) => hasher.hash(bytes(`password ${i}`)));
      expect({ running: hasher.running, waiting: hasher.waiting }).to.deep.equal({ running: 2, waiting: 8 });
      const refused = await hasher.hash(bytes('one more')).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).to.be.instanceOf(OverloadedError);

      expect(await hasher.verify(bytes('a guess'), null, '198.51.100.1')).to.equal(false);
      expect(shed()).to.equal(1);
      expect(refusals, 'only the hash was refused').to.have.length(1);
      expect(hasher.waiting).to.equal(8);
      await Promise.all(accepted);
    });
  });
});
