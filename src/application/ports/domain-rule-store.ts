import type { DomainRule, RuleHost } from '../../domain/domain-rules.js';

/** What a block did, in its one write: whether the rule is new, and what it removed. */
export interface BlockOutcome {
  /** false when the block was already there (the removals still ran: harmless, and a race closed). */
  readonly added: boolean;
  /** Follows of any local user by an actor on a covered host. */
  readonly followersRemoved: number;
  /** Pending (or leased) federation jobs whose lane is on a covered host. */
  readonly jobsDropped: number;
}

/** Which kinds of rule cover a host. */
export interface CoveringRules {
  readonly block: boolean;
  readonly allow: boolean;
}

/** The federation job kinds a block drops; `revocation_notice` goes to L1 servers, which are no federation. */
export const FEDERATION_JOB_KINDS = ['activity_delivery', 'document_delivery', 'profile_update'] as const;

/**
 * The operator's domain rules (API.md §4.3 "Domain blocks"): at most one rule of each kind per host, kept with the
 * time it was made. Every instance of a store reads the same rules, so a change takes effect on all of them.
 */
export interface DomainRuleStore {
  /**
   * Adds the block of `host` (idempotent) and, in the same write, removes every follower whose actor's host the rule
   * covers (a name: it and its subdomains; an address: itself) and drops every pending or leased job of the
   * federation kinds (FEDERATION_JOB_KINDS) whose lane's host it covers.
   */
  block(host: RuleHost, now: Date): Promise<BlockOutcome>;
  /** Removes the block of `host`; false when there was none (harmless). Nothing removed comes back. */
  unblock(host: RuleHost): Promise<boolean>;
  /** Adds an allow rule; false when it was already there (it keeps its time). */
  allow(host: RuleHost, now: Date): Promise<boolean>;
  /** Removes the allow rule of `host`; false when there was none. */
  disallow(host: RuleHost): Promise<boolean>;
  /**
   * Blocks every host of `hosts` in one write, each as `block` does; returns how many blocks were added and how
   * many were there already.
   */
  blockMany(
    hosts: readonly RuleHost[],
    now: Date,
  ): Promise<{ readonly added: number; readonly already: number } & Omit<BlockOutcome, 'added'>>;
  /** Every rule, oldest first. */
  list(): Promise<DomainRule[]>;
  /** Which kinds of rule have one of `ruleKeys` (domain-rules.ts candidateRuleKeys) as their key: one read. */
  covering(ruleKeys: readonly string[]): Promise<CoveringRules>;
}
