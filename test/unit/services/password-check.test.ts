import { expect } from 'chai';
import { BcryptPasswordHasher } from '../../../src/adapters/crypto/bcrypt-password-hasher.js';
import { OverloadedError } from '../../../src/application/ports/errors.js';
import type { LoginThrottle, ThrottleVerdict } from '../../../src/application/ports/login-throttle.js';
import type { PasswordHasher } from '../../../src/application/ports/password-hasher.js';
import { PasswordCheck } from '../../../src/application/services/password-check.js';
import type { Username } from '../../../src/domain/user.js';
import { KIT_ADDRESS, memoryLoginThrottle, useCaseKit } from '../../support/use-case-kit.js';

/**
 * The real bcrypt hasher, recording each comparison (and the hash it was against) in a shared event list; with
 * `refuse` set it refuses every job as a full line does.
 */
class CountingHasher implements PasswordHasher {
  refuse: 'verify' | 'hash' | null = null;
  private readonly bcrypt: BcryptPasswordHasher;
  constructor(
    private readonly events: string[],
    cost = 4,
  ) {
    this.bcrypt = new BcryptPasswordHasher(cost);
  }
  needsRehash(hash: string): boolean {
    return this.bcrypt.needsRehash(hash);
  }
  hash(bytes: Uint8Array): Promise<string> {
    if (this.refuse === 'hash') return this.refused();
    this.events.push('hash');
    return this.bcrypt.hash(bytes);
  }
  verify(bytes: Uint8Array, hash: string | null, clientAddress: string): Promise<boolean> {
    if (this.refuse === 'verify') return this.refused();
    this.events.push(hash === null ? 'compare:dummy' : 'compare:user');
    return this.bcrypt.verify(bytes, hash, clientAddress);
  }
  private refused(): Promise<never> {
    this.events.push('refused');
    return Promise.reject(new OverloadedError('the line is full', 7));
  }
}

/** A throttle that answers as scripted, recording each call in the shared event list. */
class ScriptedThrottle implements LoginThrottle {
  verdict: ThrottleVerdict = { limited: false };
  constructor(private readonly events: string[]) {}
  async attempt(username: string): Promise<ThrottleVerdict> {
    this.events.push(`attempt:${username}`);
    return this.verdict;
  }
  async succeeded(username: string): Promise<void> {
    this.events.push(`succeeded:${username}`);
  }
  async notChecked(username: string): Promise<void> {
    this.events.push(`notChecked:${username}`);
  }
}

const INVALID = { ok: false, error: { type: 'invalid_credentials' } };

async function setUp(throttle?: (events: string[]) => LoginThrottle, cost = 4) {
  const kit = useCaseKit();
  const registered = await kit.register.execute({
    username: 'alice',
    password: 'correct horse',
    clientAddress: KIT_ADDRESS,
  });
  if (!registered.ok) throw new Error('registration failed');
  const events: string[] = [];
  const scripted = new ScriptedThrottle(events);
  const hasher = new CountingHasher(events, cost);
  const check = new PasswordCheck(kit.store.users, hasher, throttle?.(events) ?? scripted);
  return { kit, events, throttle: scripted, check, hasher };
}

describe('PasswordCheck', () => {
  it('answers a right password with the user, counting the attempt first and clearing it after', async () => {
    const { events, check } = await setUp();
    const result = await check.check({ username: 'Alice', password: 'correct horse', clientAddress: 'a' });
    expect(result.ok && result.value.username).to.equal('alice');
    expect(events).to.deep.equal(['attempt:alice', 'compare:user', 'succeeded:alice']);
  });

  it('makes a hash of another cost again at the current cost on a right password, once', async () => {
    const { kit, events, check } = await setUp(undefined, 5);
    const before = (await kit.store.users.findByUsername('alice' as Username))?.passwordHash;
    expect(before).to.match(/^\$2b\$04\$/);

    const result = await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'a' });
    const after = (await kit.store.users.findByUsername('alice' as Username))?.passwordHash;
    expect(after).to.match(/^\$2b\$05\$/);
    expect(result.ok && result.value.passwordHash).to.equal(after);
    expect(events).to.deep.equal(['attempt:alice', 'compare:user', 'succeeded:alice', 'hash']);

    events.length = 0;
    expect(
      (await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'a' })).ok,
    ).to.equal(true);
    expect(events, 'no second rehash').to.deep.equal(['attempt:alice', 'compare:user', 'succeeded:alice']);
    const wrong = await check.check({ username: 'alice', password: 'wrong horse', clientAddress: 'a' });
    expect(wrong).to.deep.equal(INVALID);
  });

  it('answers a wrong password and an unknown user alike, after one bcrypt compare each', async () => {
    const { events, check } = await setUp();
    const wrong = await check.check({ username: 'alice', password: 'wrong horse', clientAddress: 'a' });
    expect(wrong).to.deep.equal(INVALID);
    expect(events).to.deep.equal(['attempt:alice', 'compare:user']);

    events.length = 0;
    const unknown = await check.check({ username: 'nobody', password: 'correct horse', clientAddress: 'a' });
    expect(unknown).to.deep.equal(INVALID);
    expect(events).to.deep.equal(['attempt:nobody', 'compare:dummy']);
  });

  it('answers invalid_credentials for a deleted user, even with the right password, after one compare', async () => {
    const { kit, events, check } = await setUp();
    const removed = await kit.store.accountRemoval.remove(
      { username: 'alice' as Username, revocations: [], assetDeletes: [], actorDelete: {} },
      kit.clock.now(),
    );
    expect(removed).to.equal('removed');
    const result = await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'a' });
    expect(result).to.deep.equal(INVALID);
    expect(events).to.deep.equal(['attempt:alice', 'compare:dummy']);
  });

  it('answers rate_limited without any bcrypt compare once the throttle says so', async () => {
    const { events, throttle, check } = await setUp();
    throttle.verdict = { limited: true, retryAfterSeconds: 42 };
    const result = await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'a' });
    expect(result).to.deep.equal({ ok: false, error: { type: 'rate_limited', retryAfterSeconds: 42 } });
    expect(events).to.deep.equal(['attempt:alice']);
  });

  it("answers unavailable with the hasher's Retry-After when its line is full, and gives the username its attempt back", async () => {
    const { events, check, hasher } = await setUp();
    hasher.refuse = 'verify';
    const result = await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'a' });
    expect(result).to.deep.equal({ ok: false, error: { type: 'unavailable', retryAfterSeconds: 7 } });
    expect(events).to.deep.equal(['attempt:alice', 'refused', 'notChecked:alice']);
  });

  it("lets a person retry through a full line without using up their username's attempts", async () => {
    const { check, hasher } = await setUp(() => memoryLoginThrottle({ perUsername: 3, perAddress: 100 }));
    hasher.refuse = 'verify';
    for (let i = 0; i < 5; i++) {
      const refused = await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'a' });
      expect(!refused.ok && refused.error.type).to.equal('unavailable');
    }
    hasher.refuse = null;
    expect(
      (await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'b' })).ok,
    ).to.equal(true);
  });

  it("keeps a right password's login when the line is too full to make its hash again at the current cost", async () => {
    const { kit, events, check, hasher } = await setUp(undefined, 5);
    hasher.refuse = 'hash';
    const result = await check.check({ username: 'alice', password: 'correct horse', clientAddress: 'a' });
    expect(result.ok && result.value.passwordHash).to.match(/^\$2b\$04\$/);
    expect(events).to.deep.equal(['attempt:alice', 'compare:user', 'succeeded:alice', 'refused']);
    expect((await kit.store.users.findByUsername('alice' as Username))?.passwordHash).to.match(/^\$2b\$04\$/);
  });

  it('answers invalid_credentials for a password with a NUL character, counted but never hashed', async () => {
    const { events, check } = await setUp();
    for (const password of ['correct horse\0', 'correct\0horse', '\0']) {
      const result = await check.check({ username: 'alice', password, clientAddress: 'a' });
      expect(result).to.deep.equal(INVALID);
    }
    expect(events).to.deep.equal(['attempt:alice', 'attempt:alice', 'attempt:alice']);
  });

  it("clears the username's count on a right password, so later wrong guesses start from a fresh allowance", async () => {
    const { events, check } = await setUp(() => memoryLoginThrottle({ perUsername: 3, perAddress: 100 }));
    const attempt = (password: string) => check.check({ username: 'alice', password, clientAddress: 'a' });
    expect(await attempt('wrong one')).to.deep.equal(INVALID);
    expect(await attempt('wrong two')).to.deep.equal(INVALID);
    expect((await attempt('correct horse')).ok).to.equal(true);
    // Without the reset the username's 3 attempts would be spent by now.
    for (let i = 0; i < 3; i++) expect(await attempt(`wrong again ${i}`)).to.deep.equal(INVALID);
    const limited = await attempt('correct horse');
    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
    expect(events.filter((e) => e.startsWith('compare'))).to.have.length(6);
  });
});
