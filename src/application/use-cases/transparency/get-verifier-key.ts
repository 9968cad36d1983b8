// Rule (API.md §8): the log's verifier key is served beside its checkpoints, so that anyone can check what it signs.
import type { TransparencyLog } from '../../services/transparency/transparency-log.js';

export class GetVerifierKey {
  constructor(private readonly log: TransparencyLog) {}

  /** `<origin>+<key id>+<base64 key>`, as golang.org/x/mod/sumdb/note reads verifier keys. */
  execute(): string {
    return this.log.verifierKey;
  }
}
