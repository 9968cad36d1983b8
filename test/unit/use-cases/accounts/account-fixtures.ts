import { expect } from 'chai';
import type { AuthenticatedToken } from '../../../../src/application/services/authenticate-token.js';
import { normaliseL1Server, type L1ServerUrl } from '../../../../src/domain/l1-server.js';
import type { useCaseKit } from '../../../support/use-case-kit.js';
import { KIT_ADDRESS } from '../../../support/use-case-kit.js';

export type Kit = ReturnType<typeof useCaseKit>;

export const PASSWORD = 'correct horse';
export const l1 = (url: string) => (normaliseL1Server(url) as { value: L1ServerUrl }).value;

async function authenticated(kit: Kit, token: string): Promise<AuthenticatedToken> {
  const session = await kit.authenticate.authenticate(token);
  if (!session.ok) throw new Error(`token not valid: ${session.error.type}`);
  return session.value;
}

/** Registers `name` with PASSWORD and answers the registration's session. */
export async function registered(kit: Kit, name = 'alice'): Promise<AuthenticatedToken> {
  const result = await kit.register.execute({
    username: name,
    password: PASSWORD,
    clientAddress: KIT_ADDRESS,
  });
  if (!result.ok) throw new Error('registration failed');
  return authenticated(kit, result.value.session.token);
}

/** Another session of `name`, by logging in. */
export async function loggedIn(kit: Kit, name = 'alice', password = PASSWORD): Promise<AuthenticatedToken> {
  const result = await kit.login.execute({ username: name, password, clientAddress: KIT_ADDRESS });
  if (!result.ok) throw new Error(`login failed: ${result.error.type}`);
  return authenticated(kit, result.value.token);
}

/** A token scoped to `server`, made from `session`. */
export async function attached(
  kit: Kit,
  session: AuthenticatedToken,
  server: string,
): Promise<AuthenticatedToken> {
  const result = await kit.attach.execute({ session, l1Server: l1(server) });
  if (!result.ok) throw new Error(`attach failed: ${result.error.type}`);
  return authenticated(kit, result.value.token);
}

/** Whether the token still authenticates. */
export async function isValid(kit: Kit, token: AuthenticatedToken): Promise<boolean> {
  return (await kit.authenticate.authenticate(token.token)).ok;
}

/** Delivers every queued job and answers the token hashes of the revocation notices sent. */
export async function noticesSent(kit: Kit): Promise<string[]> {
  while ((await kit.deliver.runOnce()) > 0);
  return kit.notifier.sent.map((notice) => notice.body.token_hash);
}

export async function expectNothingQueued(kit: Kit): Promise<void> {
  expect(await kit.store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
}
