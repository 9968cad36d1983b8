// The records of issue 37 (API.md §4.3, export format 4) to and from the export file, as transfer-codecs.ts maps the
// others: follow requests and actor blocks keep their ids; the key of a host is never in the file.
import { InvalidTransferError } from '../../application/ports/store-transfer.js';
import { parseRuleHost, type RuleHost } from '../../domain/domain-rules.js';
import type { Username } from '../../domain/user.js';
import type { TransferCodec } from './transfer-codecs.js';
import { millis } from './transfer-checks.js';

const iso = (at: Date): string => at.toISOString();
const date = (text: string): Date => new Date(millis(text));
const user = (name: string) => name as Username;

/**
 * A rule's host as parseRuleHost spells it (every store wrote it so): a host in another spelling would never match
 * the key it is found by, so it is refused (InvalidTransferError) rather than kept as a rule that does nothing.
 */
function ruleHost(host: string): RuleHost {
  const parsed = parseRuleHost(host, '');
  if (!parsed.ok || parsed.value !== host)
    throw new InvalidTransferError(`not a domain rule's host: ${JSON.stringify(host)}`);
  return parsed.value;
}

export const FOLLOW_CONTROL_CODECS: {
  readonly follow_request: TransferCodec<'follow_request'>;
  readonly actor_block: TransferCodec<'actor_block'>;
  readonly domain_rule: TransferCodec<'domain_rule'>;
} = {
  follow_request: {
    toTransfer: (r) => ({
      record: 'follow_request',
      id: r.id,
      username: r.username,
      actor: r.actor,
      inbox: r.inbox,
      sharedInbox: r.sharedInbox,
      followId: r.followId,
      requestedAt: iso(r.requestedAt),
    }),
    fromTransfer: (r) => ({
      id: r.id,
      username: user(r.username),
      actor: r.actor,
      inbox: r.inbox,
      sharedInbox: r.sharedInbox,
      followId: r.followId,
      requestedAt: date(r.requestedAt),
    }),
  },
  actor_block: {
    toTransfer: (b) => ({
      record: 'actor_block',
      id: b.id,
      username: b.username,
      actor: b.actor,
      inbox: b.inbox,
      createdAt: iso(b.createdAt),
    }),
    fromTransfer: (r) => ({
      id: r.id,
      username: user(r.username),
      actor: r.actor,
      inbox: r.inbox,
      createdAt: date(r.createdAt),
    }),
  },
  domain_rule: {
    toTransfer: (r) => ({ record: 'domain_rule', kind: r.kind, host: r.host, createdAt: iso(r.createdAt) }),
    fromTransfer: (r) => ({ kind: r.kind, host: ruleHost(r.host), createdAt: date(r.createdAt) }),
  },
};
