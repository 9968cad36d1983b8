import { normaliseL1Server, type L1ServerUrl } from '../../src/domain/l1-server.js';
import { revocationOf, type IssuedToken, type Revocation } from '../../src/domain/revocation.js';
import { normaliseUsername, type User, type Username } from '../../src/domain/user.js';

/** The instant test data is built around; tests move from it with `later()`. */
export const T0 = new Date('2026-01-01T00:00:00.000Z');
export const L2_SERVER = 'https://l2.example';

export const later = (ms: number, from: Date = T0): Date => new Date(from.getTime() + ms);
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

let sequence = 0;
const next = (): number => ++sequence;

export function aUsername(name: string): Username {
  const result = normaliseUsername(name);
  if (!result.ok) throw new Error(`Not a valid username in test data: ${name}`);
  return result.value;
}

export function anL1Server(url: string): L1ServerUrl {
  const result = normaliseL1Server(url);
  if (!result.ok) throw new Error(`Not a valid L1 server in test data: ${url}`);
  return result.value;
}

/** Fake PEM text: the store keeps keys as opaque strings and never parses them. */
const fakePem = (label: string, n: number): string =>
  `-----BEGIN ${label}-----\nZmFrZS1rZXktZm9yLXRlc3Rz${n}\n-----END ${label}-----\n`;

export function aUser(overrides: Partial<User> = {}): User {
  const n = next();
  return {
    username: aUsername(`user_${n}`),
    passwordHash: `$2b$04$fakehashfakehashfakehash${n}`,
    publicKeyPem: fakePem('PUBLIC KEY', n),
    privateKeyPem: fakePem('PRIVATE KEY', n),
    createdAt: T0,
    ...overrides,
  };
}

/** A SHA-256-shaped hex string, unique per call. */
export function aTokenHash(): string {
  return next().toString(16).padStart(64, '0');
}

/** An unscoped session token by default; give `l1Server` and `sessionJti` for a scoped one. */
export function anIssuedToken(overrides: Partial<IssuedToken> = {}): IssuedToken {
  const n = next();
  return {
    tokenHash: aTokenHash(),
    jti: `jti-${n}`,
    username: aUsername('alice'),
    sessionJti: null,
    l1Server: null,
    issuedAt: T0,
    expiresAt: later(30 * DAY),
    ...overrides,
  };
}

/** The revocation of a token built by `anIssuedToken(overrides)`: with a notice exactly when it is scoped. */
export function aRevocation(overrides: Partial<IssuedToken> = {}): Revocation {
  return revocationOf(anIssuedToken(overrides), L2_SERVER);
}
