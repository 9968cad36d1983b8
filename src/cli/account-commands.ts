// `l2` commands about accounts and their tokens.
import { accountState } from '../domain/user.js';
import { runMaintenance } from '../composition/maintenance.js';
import { canonical, CommandError, stateChangeRefused, type Command } from './command.js';

export const ACCOUNT_COMMANDS: readonly Command[] = [
  {
    name: 'revocations cleanup',
    usage: 'l2 revocations cleanup',
    help: 'Removes revocation and issued-token records whose token has expired, authorization codes a day after they expired, sign-in challenges and reset links that expired unused, and expired failed-login counters (the server also does this hourly).',
    operands: 0,
    async run(l2) {
      const removed = await runMaintenance(l2);
      return `removed ${removed.revocations} expired revocation records, ${removed.issuedTokens} expired issued-token records, ${removed.authorizationCodes} expired authorization codes and ${removed.challenges} expired sign-in challenges`;
    },
  },
  {
    name: 'users list',
    usage: 'l2 users list',
    help: 'Lists the accounts, newest first: username, registration time and state (active or disabled; deleted accounts are in no list).',
    operands: 0,
    async run(l2) {
      const { listUsers } = l2.useCases;
      const lines: string[] = [];
      for (let before: number | undefined; ;) {
        const page = await listUsers.execute({ limit: 100, ...(before === undefined ? {} : { before }) });
        lines.push(
          ...page.items.map((u) => [u.username, u.createdAt.toISOString(), accountState(u)].join('\t')),
        );
        if (page.nextCursor === null) return lines.join('\n') || 'no users';
        before = page.nextCursor;
      }
    },
  },
  {
    name: 'users show',
    usage: 'l2 users show USER',
    help: 'Shows what the service holds about one account (never its password hash or private key): its state, when it registered and was disabled or deleted, its activities, live assets, followers, unexpired tokens and attached L1 servers.',
    operands: 1,
    required: 1,
    async run(l2, [name]) {
      const found = await l2.useCases.describeUser.execute(name!);
      if (!found) throw new CommandError(`there is no user ${name}`);
      const { profile } = found;
      return [
        `username     ${profile.username}`,
        `state        ${accountState(profile)}`,
        `registered   ${profile.createdAt.toISOString()}`,
        `disabled     ${profile.disabledAt?.toISOString() ?? 'no'}`,
        `deleted      ${profile.deletedAt?.toISOString() ?? 'no'}`,
        `activities   ${found.activities}`,
        `live assets  ${found.liveAssets}`,
        `followers    ${found.followers}`,
        `tokens       ${found.sessions} sessions, ${found.scopedTokens} scoped to L1 servers (unexpired, revoked or not)`,
        `L1 servers   ${found.l1Servers.join(', ') || 'none'}`,
      ].join('\n');
    },
  },
  {
    name: 'users disable',
    usage: 'l2 users disable USER',
    help: 'Disables an account at once: every token of it is revoked (each L1 server is sent a revocation notice, as at logout), signing in fails with 401 as for a wrong password, and its actor, profile, outbox, followers and webfinger answer 410 — until `l2 users enable`. Its name, assets, activities and followers are kept. Disabling a disabled account revokes any token left.',
    operands: 1,
    required: 1,
    async run(l2, [name]) {
      const done = await l2.useCases.disableUser.execute(name!);
      if (!done.ok) throw stateChangeRefused(done.error, name!);
      const { revoked, already } = done.value;
      const username = canonical(name!);
      return `${already ? `${username} was disabled already` : `disabled ${username}`}; revoked ${revoked} tokens (L1 servers are told from the queue)`;
    },
  },
  {
    name: 'users enable',
    usage: 'l2 users enable USER',
    help: 'Enables a disabled account again: its actor and webfinger answer again and its owner can sign in. Its tokens stay revoked.',
    operands: 1,
    required: 1,
    async run(l2, [name]) {
      const done = await l2.useCases.enableUser.execute(name!);
      if (!done.ok) throw stateChangeRefused(done.error, name!);
      const username = canonical(name!);
      return done.value.wasDisabled ? `enabled ${username}` : `${username} was not disabled`;
    },
  },
  {
    name: 'users reset',
    usage: 'l2 users reset USER [--clear-factors]',
    help: "Prints a one-time link where the person sets a new password: valid one hour, used once, stored only as a hash (a newer link replaces it). Using it revokes every token of the account (each L1 server is sent a revocation notice, as for a password change) and is recorded in the account's history. With --clear-factors it also removes two-step sign-in, the recovery codes and the passkeys, for a person who lost them too. Give the link to the person only, by a channel you trust: whoever holds it can take the account.",
    operands: 1,
    required: 1,
    options: { 'clear-factors': { type: 'boolean' } },
    async run(l2, [name], options) {
      const clearFactors = options['clear-factors'] === true;
      const made = await l2.useCases.createResetLink.execute({ username: name!, clearFactors });
      if (!made.ok) throw stateChangeRefused(made.error, name!);
      const { username, token, expiresAt, disabled, passkeys } = made.value;
      const link = `${l2.config.publicUrl}/auth/reset?token=${token}`;
      return [
        link,
        `for ${username}; valid until ${expiresAt.toISOString()}, once` +
          (clearFactors ? '; using it also removes two-step sign-in and the passkeys' : ''),
        ...(disabled ? [`note: ${username} is disabled: the new password signs in once you enable it`] : []),
        ...(clearFactors || passkeys.length === 0
          ? []
          : [
              `note: ${passkeys.length} passkey(s) still sign in without the password; if ${username} does not know ` +
                'one of them, reset with --clear-factors:',
              ...passkeys.map(
                (p) =>
                  `  ${p.name}: added ${p.createdAt.toISOString()}, last used ${p.lastUsedAt?.toISOString() ?? 'never'}`,
              ),
            ]),
      ].join('\n');
    },
  },
  {
    name: 'tokens revoke',
    usage: 'l2 tokens revoke --user USER',
    help: 'Signs a user out everywhere: revokes every unexpired session token and, with them, the tokens scoped to L1 servers they created (a scoped token never outlives its session); each L1 server is sent a revocation notice, as at logout. The account stays usable: the person signs in again. (--everywhere, from earlier versions, is accepted and changes nothing.)',
    operands: 0,
    options: { user: { type: 'string' }, everywhere: { type: 'boolean' } },
    async run(l2, _operands, options) {
      const username = options.user;
      if (typeof username !== 'string') throw new CommandError('give the user: --user USER');
      const revoked = await l2.useCases.revokeUserTokens.execute({ username });
      if (revoked === null) throw new CommandError(`there is no user ${username}`);
      return `revoked ${revoked} tokens of ${canonical(username)} (L1 servers are told from the queue)`;
    },
  },
];
