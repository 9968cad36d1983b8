// Rule: a signed-in user (a session token, not one scoped to an L1 server) registers an asset under a free name,
// within the per-user budget of writes; the asset and its signed Create activity are written together.
import type { Activity } from '../../../domain/activity.js';
import { parseAssetName, type Asset, type AssetFields } from '../../../domain/asset.js';
import { err, type Result } from '../../../domain/result.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { AssetWrites } from '../../services/asset-writes.js';
import { checkFields, type AssetError } from '../../services/asset-checks.js';

export class RegisterAsset {
  constructor(private readonly writes: AssetWrites) {}

  async execute(input: {
    /** The token the request was made with. */
    writer: TokenClaims;
    name: string;
    fields: AssetFields;
  }): Promise<Result<{ asset: Asset; activity: Activity }, AssetError>> {
    const writer = this.writes.writer(input.writer);
    if (!writer.ok) return writer;
    const name = parseAssetName(input.name);
    if (!name.ok) return err({ type: 'invalid_request', ...name.error });
    const fields = checkFields(input.fields);
    if (!fields.ok) return fields;
    if (await this.writes.assets.findByName(name.value))
      return err({ type: 'asset_exists', name: name.value });
    const owner = await this.writes.spend(writer.value);
    if (!owner.ok) return owner;

    const published = await this.writes.publish.execute({
      publisher: owner.value,
      edit: { kind: 'create', name: name.value, owner: owner.value.username, fields: fields.value },
    });
    if (published.ok) return published;
    return err(
      published.error === 'entry_too_large'
        ? { type: 'payload_too_large' }
        : { type: 'asset_exists', name: name.value },
    );
  }
}
