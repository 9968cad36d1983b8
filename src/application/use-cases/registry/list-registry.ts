// Rule: the registry lists live assets, newest first, optionally one owner's, by name prefix, or by tag (any case).
import type { Page } from '../../../domain/page.js';
import type { Asset } from '../../../domain/asset.js';
import type { Username } from '../../../domain/user.js';
import { paginate, type CursorRequest } from '../../pagination.js';
import type { AssetFilter, AssetRepository } from '../../ports/asset-repository.js';

export class ListRegistry {
  constructor(private readonly assets: AssetRepository) {}

  execute(
    filter: { owner?: Username; namePrefix?: string; tag?: string },
    page: CursorRequest,
  ): Promise<Page<Asset>> {
    const f: AssetFilter = filter;
    return paginate(page, {
      older: (before, limit) => this.assets.listOlder(f, before, limit),
      newer: (after, limit) => this.assets.listNewer(f, after, limit),
      count: () => this.assets.count(f),
    });
  }
}
