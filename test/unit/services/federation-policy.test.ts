import { expect } from 'chai';
import { openMemoryPersistence } from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import { FederationPolicy } from '../../../src/application/services/federation-policy.js';
import {
  hostKey,
  parseRuleHost,
  type FederationMode,
  type RuleHost,
} from '../../../src/domain/domain-rules.js';
import { FixedClock } from '../../support/fixed-clock.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const host = (name: string): RuleHost => {
  const parsed = parseRuleHost(name, 'l2.example.com');
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

function policyOf(mode: FederationMode) {
  const store = openMemoryPersistence();
  const clock = new FixedClock(NOW);
  return {
    store,
    clock,
    policy: new FederationPolicy(mode, store.domainRules, 'https://l2.example.com', clock),
  };
}

describe('FederationPolicy', () => {
  it('never judges this service’s own origin, even under a block of a parent domain', async () => {
    const { store, policy } = policyOf('allowlist');
    await store.domainRules.block(host('example.com'), NOW);

    expect(await policy.federatesWith(['https://l2.example.com/users/alice'])).to.equal(true);
    expect(await policy.federatesWith(['https://other.example.com/users/bob'])).to.equal(false);
    expect(await policy.federatesWithRecently('https://l2.example.com/inbox')).to.equal(true);
  });

  it('in allowlist mode needs an allow for every host judged together', async () => {
    const { store, policy } = policyOf('allowlist');
    await store.domainRules.allow(host('a.example'), NOW);

    expect(await policy.federatesWith(['https://a.example/u', 'https://x.a.example/k'])).to.equal(true);
    expect(await policy.federatesWith(['https://a.example/u', 'https://b.example/k'])).to.equal(false);
  });

  it('answers the delivery worker from rules at most a second old', async () => {
    const { store, clock, policy } = policyOf('blocklist');
    expect(await policy.federatesWithRecently('https://bad.example/inbox')).to.equal(true);
    await store.domainRules.block(host('bad.example'), NOW);

    expect(await policy.federatesWithRecently('https://bad.example/inbox')).to.equal(true);
    clock.advance(1000);
    expect(await policy.federatesWithRecently('https://bad.example/inbox')).to.equal(false);
    expect(await policy.federatesWith(['https://bad.example/inbox'])).to.equal(false);
  });

  it('scopes followers to the allowed hosts in allowlist mode only', async () => {
    const allowlist = policyOf('allowlist');
    await allowlist.store.domainRules.allow(host('a.example'), NOW);
    await allowlist.store.domainRules.allow(host('x.a.example'), NOW);
    expect(await allowlist.policy.followerScope()).to.deep.equal({ allowKeys: [hostKey('a.example')] });
    expect(await policyOf('blocklist').policy.followerScope()).to.equal(null);
  });
});
