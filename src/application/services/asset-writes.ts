// What every asset write (register, update, delete) is made of: the assets, their owners' accounts, the writers'
// budget and the publication of the edit — one service, so the three use-cases share one preamble.
import type { Asset } from '../../domain/asset.js';
import type { Result } from '../../domain/result.js';
import type { TokenClaims } from '../../domain/token.js';
import type { User, Username } from '../../domain/user.js';
import type { AssetRepository } from '../ports/asset-repository.js';
import type { RateLimit } from '../ports/rate-limit.js';
import type { UserRepository } from '../ports/user-repository.js';
import { activeWriterSpending, ownedLiveAsset, writerOf, type AssetError } from './asset-checks.js';
import type { PublishActivity } from './publish-activity.js';

export class AssetWrites {
  constructor(
    readonly assets: AssetRepository,
    private readonly users: UserRepository,
    readonly publish: PublishActivity,
    private readonly budget: RateLimit,
  ) {}

  /** Who writes: a session token's user (a token scoped to an L1 server writes nothing). Checked first. */
  writer(token: TokenClaims): Result<Username, AssetError> {
    return writerOf(token);
  }

  /** The live asset `name` that `writer` owns, or why not (not found, gone, another owner's). */
  ownedLive(name: string, writer: Username): Promise<Result<Asset, AssetError>> {
    return ownedLiveAsset(this.assets, name, writer);
  }

  /** The writer's active account, once the request itself has been judged, with one write of its budget spent. */
  spend(writer: Username): Promise<Result<User, AssetError>> {
    return activeWriterSpending(this.users, this.budget, writer);
  }
}
