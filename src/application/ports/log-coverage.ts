/**
 * What a write needs of the transparency log (API.md §8): to be refused before it stores anything while the log
 * cannot sign, and to be answered only once a signed checkpoint covers it. The TransparencyLog service is it.
 */
export interface LogCoverage {
  /** Throws TransparencyLogUnavailableError while the log is known not to match the store. */
  refuseUnlessConsistent(): void;
  /** Resolves once a checkpoint of at least `size` entries is signed and served; rejects when none can be. */
  cover(size: number): Promise<unknown>;
}
