import type { Percentiles } from './latency-recorder.js';

export interface PasskeySignInSpec {
  /** The service's address. */
  readonly base: string;
  /** PUBLIC_URL: the origin the authenticators sign for (its host is the relying party id). */
  readonly origin: string;
  readonly password: string;
  /** Concurrent clients, each signing in with a passkey of its own. */
  readonly clients: number;
  readonly seconds: number;
}

export interface PasskeySignInResult {
  readonly clients: number;
  readonly seconds: number;
  /** Completed sign-ins (a challenge and an accepted assertion each). */
  readonly ok: number;
  readonly refused: number;
  readonly perSecond: number;
  /** Of a whole sign-in: the challenge's request and the sign-in's. */
  readonly latencyMs: Percentiles;
}
