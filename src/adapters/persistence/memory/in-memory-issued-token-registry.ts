import type { IssuedTokenRegistry } from '../../../application/ports/issued-token-registry.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { MemoryDatabase } from './memory-database.js';

const copyOf = (token: IssuedToken): IssuedToken => ({
  ...token,
  issuedAt: new Date(token.issuedAt),
  expiresAt: new Date(token.expiresAt),
});

export class InMemoryIssuedTokenRegistry implements IssuedTokenRegistry {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async add(token: IssuedToken): Promise<void> {
    this.db.assertOpen();
    if (!this.db.issuedTokens.has(token.tokenHash)) this.db.issuedTokens.set(token.tokenHash, copyOf(token));
  }

  async listActiveBySession(sessionJti: string, now: Date): Promise<IssuedToken[]> {
    return this.listActive(now, (t) => t.sessionJti === sessionJti);
  }

  async listActiveByUser(username: Username, now: Date): Promise<IssuedToken[]> {
    return this.listActive(now, (t) => t.username === username);
  }

  async listActiveScoped(username: Username, l1Server: L1ServerUrl, now: Date): Promise<IssuedToken[]> {
    return this.listActive(now, (t) => t.username === username && t.l1Server === l1Server);
  }

  async deleteExpired(now: Date): Promise<number> {
    this.db.assertOpen();
    let deleted = 0;
    for (const [hash, token] of this.db.issuedTokens) {
      if (token.expiresAt.getTime() < now.getTime()) {
        this.db.issuedTokens.delete(hash);
        deleted++;
      }
    }
    return deleted;
  }

  private listActive(now: Date, matches: (token: IssuedToken) => boolean): IssuedToken[] {
    this.db.assertOpen();
    return [...this.db.issuedTokens.values()]
      .filter((t) => t.expiresAt.getTime() > now.getTime() && matches(t))
      .map(copyOf);
  }
}
