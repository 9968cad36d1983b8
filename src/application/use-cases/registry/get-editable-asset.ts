// Rule: the owner's edit form starts from the asset as it is — live, theirs, and asked for with a session token.
import type { Asset } from '../../../domain/asset.js';
import type { Result } from '../../../domain/result.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import { ownedLiveAsset, writerOf, type AssetError } from '../../services/asset-checks.js';

export class GetEditableAsset {
  constructor(private readonly assets: AssetRepository) {}

  async execute(input: { writer: TokenClaims; name: string }): Promise<Result<Asset, AssetError>> {
    const writer = writerOf(input.writer);
    return writer.ok ? ownedLiveAsset(this.assets, input.name, writer.value) : writer;
  }
}
