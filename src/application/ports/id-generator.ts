export interface IdGenerator {
  /** A new unguessable id (e.g. a token's `jti`). */
  newId(): string;
  /** A number in [0, 1), for retry jitter. */
  random(): number;
}
