/**
 * Remembers the `jti` of every client assertion accepted, for ASSERTION_REPLAY_WINDOW_SECONDS, in the store: every
 * process on it shares the memory, so an assertion replayed to another instance is refused too. Expired entries go
 * with the hourly clean-up.
 */
export interface AssertionReplays {
  /**
   * Records the pair and answers true when it was not seen within the window, false for a replay. Atomic: of any
   * number of concurrent calls with one pair, exactly one answers true. Throws StoreUnavailableError when the
   * store cannot answer.
   */
  firstUse(clientId: string, jti: string): Promise<boolean>;
}
