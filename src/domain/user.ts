import { err, ok, type Result } from './result.js';

/** A username after normalisation: lower-case, 3–30 characters of [a-z0-9_]. */
export type Username = string & { readonly __brand: 'Username' };

export const USERNAME_PATTERN = /^[a-z0-9_]{3,30}$/;

/** Usernames are case-insensitive: input is lower-cased before any check, so `Alice` and `alice` are one user. */
export function normaliseUsername(input: string): Result<Username, 'invalid_username'> {
  const lowered = input.toLowerCase();
  return USERNAME_PATTERN.test(lowered) ? ok(lowered as Username) : err('invalid_username');
}

export interface User {
  readonly username: Username;
  readonly passwordHash: string;
  readonly publicKeyPem: string;
  readonly privateKeyPem: string;
  readonly createdAt: Date;
}
