import type { TokenErrorCode } from './errors.js';
import type { L2User } from './types.js';

export type Verdict =
  { valid: true; user: L2User; until: number } | { valid: false; code: TokenErrorCode; until: number };

/**
 * Verdicts by SHA-256 of the token, each with the instant it stops counting. Bounded: past `maxEntries` the least
 * recently used goes. Never holds the token itself.
 */
export class VerdictCache {
  readonly #entries = new Map<string, Verdict>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): Verdict | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  set(key: string, verdict: Verdict): void {
    this.#entries.delete(key);
    this.#entries.set(key, verdict);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): boolean {
    return this.#entries.delete(key);
  }

  /** Drops every positive verdict (the notice receiver went away). */
  dropPositive(): void {
    for (const [key, entry] of this.#entries) if (entry.valid) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
