// Rule (operators): the rules are listed with the mode they are judged in, oldest first.
import type { DomainRule, FederationMode } from '../../../domain/domain-rules.js';
import type { DomainRuleStore } from '../../ports/domain-rule-store.js';

export class ListDomainRules {
  constructor(
    private readonly rules: DomainRuleStore,
    private readonly mode: FederationMode,
  ) {}

  async execute(): Promise<{ readonly mode: FederationMode; readonly rules: readonly DomainRule[] }> {
    return { mode: this.mode, rules: await this.rules.list() };
  }
}
