export interface StoreHealth {
  /** Resolves when the store answers a trivial query; rejects when it cannot. */
  ping(): Promise<void>;
}
