// The refusals of a change of what protects an account and of the sign-in steps (docs/accounts.md): one table, each
// route declaring the part it can meet.
import type { SecurityError } from '../../../../application/use-cases/security/security-errors.js';
import { passwordRefusals } from './account-errors.js';
import { ErrorTable } from './error-table.js';
import { invalidField, scopedTokenForbidden } from './shared-refusals.js';

export const SECURITY_ERRORS = new ErrorTable<SecurityError>({
  ...passwordRefusals(
    'The password is wrong, or the passkey was not accepted.',
    'the password is wrong or the passkey not accepted (counts towards the login limits)',
  ),
  forbidden: scopedTokenForbidden,
  invalid_request: invalidField(),
  challenge_expired: {
    status: 401,
    doc: 'the sign-in step, passkey challenge or reset link is unknown, used or expired: start again',
    input: true,
    detail: 'This has expired or was used already. Please start again.',
  },
  already_enabled: {
    status: 409,
    doc: 'two-step sign-in is on already',
    input: true,
    detail: 'Two-step sign-in is on already.',
  },
  not_enabled: {
    status: 409,
    doc: 'two-step sign-in is off (recovery codes stand in for it)',
    input: true,
    detail: 'Turn two-step sign-in on first.',
  },
  not_found: {
    status: 404,
    doc: 'no passkey of the caller has this id',
    detail: 'You have no such passkey.',
  },
  passkey_exists: {
    status: 409,
    doc: 'this authenticator’s passkey is registered already',
    input: true,
    detail: 'This passkey is registered already.',
  },
  too_many_passkeys: {
    status: 409,
    doc: 'the account has as many passkeys as it may',
    input: true,
    detail: 'You have as many passkeys as an account may have; remove one first.',
  },
});

/** Where the person proves it is them again: the refusals of that proof. */
export const CONFIRMATION = ['invalid_credentials', 'rate_limited', 'unavailable', 'forbidden'] as const;
