// The operations area: what the operator's commands (`l2 …`), the home page's counts and the hourly clean-up call.
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { ChangeDomainRule } from './change-domain-rule.js';
import { CleanupChallenges } from './cleanup-challenges.js';
import { CleanupRevocations } from './cleanup-revocations.js';
import { CreateResetLink } from './create-reset-link.js';
import { DescribeUser } from './describe-user.js';
import { DisableUser } from './disable-user.js';
import { EnableUser } from './enable-user.js';
import { GetQueueStatistics } from './get-queue-statistics.js';
import { GetStatistics } from './get-statistics.js';
import { ImportDomainBlocks } from './import-domain-blocks.js';
import { ListDomainRules } from './list-domain-rules.js';
import { RevokeUserTokens } from './revoke-user-tokens.js';

export const OPERATIONS_USE_CASES = {
  getStatistics: (p) => new GetStatistics(p.store.users, p.store.assets, p.store.activities),
  getQueueStatistics: (p) => new GetQueueStatistics(p.store.queueAdministration),
  revokeUserTokens: (p) =>
    new RevokeUserTokens(p.store.users, p.store.issuedTokens, p.revocationWriter, p.clock),
  describeUser: (p) =>
    new DescribeUser(
      p.store.users,
      p.store.activities,
      p.store.assets,
      p.store.followers,
      p.store.issuedTokens,
      p.store.attachments,
      p.clock,
    ),
  disableUser: (p) =>
    new DisableUser(p.store.users, p.store.issuedTokens, p.revocationWriter, p.workSignal, p.clock),
  enableUser: (p) => new EnableUser(p.store.users),
  cleanupRevocations: (p) =>
    new CleanupRevocations(p.store.revocations, p.store.issuedTokens, p.store.authorizationCodes, p.clock),
  cleanupChallenges: (p) => new CleanupChallenges(p.store.accountSecurity, p.clock),
  createResetLink: (p) => new CreateResetLink(p.store.users, p.resetLinks, p.store.accountSecurity),
  changeDomainRule: (p) => new ChangeDomainRule(p.store.domainRules, new URL(p.urls.base).hostname, p.clock),
  listDomainRules: (p) => new ListDomainRules(p.store.domainRules, p.federationMode),
  importDomainBlocks: (p) =>
    new ImportDomainBlocks(p.store.domainRules, new URL(p.urls.base).hostname, p.clock),
} satisfies AreaRegistry;

export type OperationsUseCases = UseCasesOf<typeof OPERATIONS_USE_CASES>;
