// `l2 domains …`: the operator's domain blocks and allow rules (API.md §4.3), on the store the service uses. Every
// instance of the store reads them at once: no restart.
import { readFile } from 'node:fs/promises';
import { domainBlockRows, NotADomainBlockExport } from '../adapters/cli/mastodon-domain-blocks.js';
import type { DomainRuleChange } from '../application/use-cases/operations/change-domain-rule.js';
import type { L2Parts } from '../composition/compose.js';
import { UsageError, type Command } from './command.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What each change says it did, or that it was so already. */
const SAID: Record<DomainRuleChange, { readonly done: string; readonly already: string }> = {
  block: { done: 'blocked', already: 'was already blocked' },
  unblock: { done: 'unblocked', already: 'was not blocked' },
  allow: { done: 'allowed', already: 'was already allowed' },
  disallow: { done: 'disallowed', already: 'was not allowed' },
};

const HELP: Record<DomainRuleChange, string> = {
  block:
    'Stops federation with HOST and its subdomains (an IP address: that address only): its inbox requests are answered 403, nothing is fetched from it or delivered to it; in the same write every follower on it is removed (no notice sent) and its queued deliveries are dropped. Takes effect on every instance at once.',
  unblock:
    'Removes the block of HOST. Followers removed by it do not come back: their servers follow again if their people do.',
  allow:
    'Adds an allow rule for HOST and its subdomains. In allowlist mode (FEDERATION_MODE=allowlist) only allowed, unblocked domains federate; in blocklist mode allow rules are kept and have no effect.',
  disallow:
    'Removes the allow rule of HOST. In allowlist mode its followers are kept but sent nothing and left out of the followers collections until it is allowed again.',
};

function ruleCommand(change: DomainRuleChange): Command {
  return {
    name: `domains ${change}`,
    usage: `l2 domains ${change} HOST`,
    help: `${HELP[change]} HOST is a host name (example.com) or an IP address: no scheme, port, path or wildcard.`,
    operands: 1,
    required: 1,
    async run(l2: L2Parts, [given]: string[]) {
      const changed = await l2.useCases.changeDomainRule.execute(change, given!);
      if (!changed.ok) throw new UsageError(`l2: ${changed.error.message}`);
      const { host, followersRemoved, jobsDropped } = changed.value;
      const said = changed.value.changed ? SAID[change].done + ` ${host}` : `${host} ${SAID[change].already}`;
      if (change !== 'block') return said;
      return `${said}: ${plural(followersRemoved, 'follower')} removed, ${plural(jobsDropped, 'queued delivery', 'queued deliveries')} dropped`;
    },
  };
}

export const DOMAIN_COMMANDS: readonly Command[] = [
  ruleCommand('block'),
  ruleCommand('unblock'),
  ruleCommand('allow'),
  ruleCommand('disallow'),
  {
    name: 'domains list',
    usage: 'l2 domains list [--json]',
    help: 'The federation mode (FEDERATION_MODE), then every rule, oldest first: block HOST or allow HOST with the time it was made. --json: {"mode", "rules": [{"kind", "host", "created_at"}]}.',
    operands: 0,
    options: { json: { type: 'boolean' } },
    async run(l2, _operands, options) {
      const { mode, rules } = await l2.useCases.listDomainRules.execute();
      if (options.json)
        return JSON.stringify({
          mode,
          rules: rules.map((r) => ({ kind: r.kind, host: r.host, created_at: r.createdAt.toISOString() })),
        });
      return [`mode ${mode}`, ...rules.map((r) => `${r.kind} ${r.host} ${r.createdAt.toISOString()}`)].join(
        '\n',
      );
    },
  },
  {
    name: 'domains import',
    usage: 'l2 domains import FILE',
    help: 'Blocks every suspend row of a Mastodon domain-block export (CSV with the header #domain,#severity,…), all in one write; rows of other severities (silence, noop), domains blocked already and rows that name no host are skipped and counted.',
    operands: 1,
    required: 1,
    async run(l2, [file]) {
      let rows;
      try {
        rows = domainBlockRows(await readFile(file!, 'utf8'));
      } catch (error) {
        if (error instanceof NotADomainBlockExport) throw new UsageError(`l2: ${file}: ${error.message}`);
        throw error;
      }
      const imported = await l2.useCases.importDomainBlocks.execute(rows);
      const { severity, already, invalid } = imported.skipped;
      const skipped = severity + already + invalid;
      return [
        `added ${imported.added}, skipped ${skipped} (${severity} not suspend, ${already} already blocked, ${invalid} not a host): ` +
          `${plural(imported.followersRemoved, 'follower')} removed, ` +
          `${plural(imported.jobsDropped, 'queued delivery', 'queued deliveries')} dropped`,
        ...imported.invalidReasons.map((reason) => `skipped ${reason}`),
      ].join('\n');
    },
  },
];
