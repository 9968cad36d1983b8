import type { AccountEvent, AccountEventKind } from '../../../domain/account-security.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { Confirmation } from '../../services/identity-confirmation.js';

/** Who asks for a change of what protects their account, and how they proved it is them. */
export interface Asker {
  readonly session: AuthenticatedToken;
  readonly confirmation: Confirmation;
  /** The address the login limits count (an IPv4 address or an IPv6 /64). */
  readonly clientAddress: string;
  /** The request's address, for the history. */
  readonly address: string;
}

/** The history entry of a change the asker made at `at`. */
export const eventBy = (
  asker: Pick<Asker, 'session' | 'address'>,
  kind: AccountEventKind,
  at: Date,
  detail: string | null = null,
): AccountEvent => ({ username: asker.session.claims.username, kind, detail, at, address: asker.address });
