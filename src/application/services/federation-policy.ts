// Rule: L2 federates with a host unless a block covers it; in allowlist mode an allow must cover it too (a block
// still wins). This service's own origin is never judged: a rule on a parent domain of PUBLIC_URL's host must not
// shut the service out of its own URLs. Three places ask: the inbox (every request, before anything is read), the
// outbound client (every fetch and delivery), the followers collections (allowlist mode hides unlisted followers).
import {
  allowlistScope,
  candidateRuleKeys,
  federates,
  hostKey,
  hostKeyOfUrl,
  ruleCovers,
  type DomainRule,
  type FederationMode,
  type HostScope,
} from '../../domain/domain-rules.js';
import { sameOrigin } from '../../domain/federation.js';
import type { Clock } from '../ports/clock.js';
import type { DomainRuleStore } from '../ports/domain-rule-store.js';
import type { FederationGate } from '../ports/federation-gate.js';

/** How old the rules the delivery worker judges by may be (ADR 21): a block drops queued jobs itself, at once. */
export const RULES_SNAPSHOT_MS = 1000;

export class FederationPolicy implements FederationGate {
  private snapshot: { readonly at: number; readonly rules: Promise<readonly DomainRule[]> } | null = null;

  constructor(
    readonly mode: FederationMode,
    private readonly rules: DomainRuleStore,
    /** PUBLIC_URL's origin. */
    private readonly ownOrigin: string,
    private readonly clock: Clock,
  ) {}

  async federatesWith(urls: readonly string[]): Promise<boolean> {
    const keys = this.judgedKeys(urls);
    if (keys.length === 0) return true;
    // One read for every host at once: a block of any of them settles it. In allowlist mode each host needs its own
    // allow, so hosts that differ are read one by one (the inbox's actor and key are on one host in practice).
    if (this.mode === 'blocklist' || keys.length === 1)
      return federates(await this.rules.covering(keys.flatMap(candidateRuleKeys)), this.mode);
    const found = await Promise.all(keys.map((key) => this.rules.covering(candidateRuleKeys(key))));
    return found.every((covering) => federates(covering, this.mode));
  }

  async federatesWithRecently(url: string): Promise<boolean> {
    const [key] = this.judgedKeys([url]);
    if (key === undefined) return true;
    const rules = await this.recentRules();
    const covers = (kind: DomainRule['kind']) =>
      rules.some((rule) => rule.kind === kind && ruleCovers(hostKey(rule.host), key));
    return federates({ block: covers('block'), allow: covers('allow') }, this.mode);
  }

  /** The followers a collection shows: every one in blocklist mode, those an allow covers in allowlist mode. */
  async followerScope(): Promise<HostScope> {
    if (this.mode === 'blocklist') return null;
    const rules = await this.rules.list();
    return allowlistScope(rules.filter((rule) => rule.kind === 'allow').map((rule) => rule.host));
  }

  /** The distinct host keys of the URLs to judge: not this service's own, not those that are no URL. */
  private judgedKeys(urls: readonly string[]): string[] {
    const keys = urls
      .filter((url) => !sameOrigin(url, this.ownOrigin))
      .map(hostKeyOfUrl)
      .filter((key): key is string => key !== null);
    return [...new Set(keys)];
  }

  /** The rules as read at most RULES_SNAPSHOT_MS ago; concurrent callers share one read. */
  private recentRules(): Promise<readonly DomainRule[]> {
    const now = this.clock.now().getTime();
    const current = this.snapshot;
    if (current !== null && now - current.at < RULES_SNAPSHOT_MS && now >= current.at) return current.rules;
    const rules = this.rules.list();
    this.snapshot = { at: now, rules };
    // A failed read is not kept: the next call reads again.
    rules.catch(() => {
      if (this.snapshot?.rules === rules) this.snapshot = null;
    });
    return rules;
  }
}
