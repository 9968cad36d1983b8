// Rule: anyone can read an asset by name; a deleted one is still known (as a tombstone).
import { parseAssetName, type Asset } from '../../../domain/asset.js';
import type { AssetRepository } from '../../ports/asset-repository.js';

export class GetAsset {
  constructor(private readonly assets: AssetRepository) {}

  /** The asset (check `deletedAt`), or null when the name was never registered. */
  async execute(name: string): Promise<Asset | null> {
    const parsed = parseAssetName(name);
    return parsed.ok ? this.assets.findByName(parsed.value) : null;
  }
}
