// Rule (operators, API.md §4.3): a domain rule names a host — a name covers it and every subdomain, an address only
// itself — never PUBLIC_URL's own host. Each change is idempotent; a block takes effect when it returns, on every
// instance of the store, removing the domain's followers and dropping its queued deliveries in the same write.
import { parseRuleHost, type RuleHost } from '../../../domain/domain-rules.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { Clock } from '../../ports/clock.js';
import type { DomainRuleStore } from '../../ports/domain-rule-store.js';

export type DomainRuleChange = 'block' | 'unblock' | 'allow' | 'disallow';

export interface DomainRuleChanged {
  /** The host as the rule holds it (lower-case, punycode, no trailing dot). */
  readonly host: RuleHost;
  /** false when the rule was already as asked (nothing changed). */
  readonly changed: boolean;
  /** A block's removals (0 for the other changes). */
  readonly followersRemoved: number;
  readonly jobsDropped: number;
}

/** HOST is no host (a scheme, port, path, wildcard, …) or PUBLIC_URL's own: `message` says which, in one line. */
export type DomainRuleError = { readonly type: 'invalid_request'; readonly message: string };

export class ChangeDomainRule {
  constructor(
    private readonly rules: DomainRuleStore,
    /** PUBLIC_URL's hostname: no rule may name it. */
    private readonly ownHost: string,
    private readonly clock: Clock,
  ) {}

  async execute(
    change: DomainRuleChange,
    given: string,
  ): Promise<Result<DomainRuleChanged, DomainRuleError>> {
    const parsed = parseRuleHost(given, this.ownHost);
    if (!parsed.ok) return err({ type: 'invalid_request', message: parsed.error });
    const host = parsed.value;
    const none = { followersRemoved: 0, jobsDropped: 0 };
    switch (change) {
      case 'block': {
        const { added, ...removed } = await this.rules.block(host, this.clock.now());
        return ok({ host, changed: added, ...removed });
      }
      case 'unblock':
        return ok({ host, changed: await this.rules.unblock(host), ...none });
      case 'allow':
        return ok({ host, changed: await this.rules.allow(host, this.clock.now()), ...none });
      case 'disallow':
        return ok({ host, changed: await this.rules.disallow(host), ...none });
    }
  }
}
