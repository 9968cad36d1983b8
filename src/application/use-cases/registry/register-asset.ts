// Rule: a signed-in user (a session token, not one scoped to an L1 server) registers an asset under a free name,
// within the per-user budget of writes; the asset and its signed Create activity are written together.
import type { Activity } from '../../../domain/activity.js';
import { parseAssetName, type Asset, type AssetFields } from '../../../domain/asset.js';
import { err, type Result } from '../../../domain/result.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { PublishActivity } from './publish-activity.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { RateLimit } from '../../ports/rate-limit.js';
import type { UserRepository } from '../../ports/user-repository.js';
import { activeWriterSpending, checkFields, writerOf, type AssetError } from './asset-checks.js';

export class RegisterAsset {
  constructor(
    private readonly assets: AssetRepository,
    private readonly users: UserRepository,
    private readonly publish: PublishActivity,
    private readonly writes: RateLimit,
  ) {}

  async execute(input: {
    /** The token the request was made with. */
    writer: TokenClaims;
    name: string;
    fields: AssetFields;
  }): Promise<Result<{ asset: Asset; activity: Activity }, AssetError>> {
    const writer = writerOf(input.writer);
    if (!writer.ok) return writer;
    const name = parseAssetName(input.name);
    if (!name.ok) return err({ type: 'invalid_request', ...name.error });
    const fields = checkFields(input.fields);
    if (!fields.ok) return fields;
    if (await this.assets.findByName(name.value)) return err({ type: 'asset_exists', name: name.value });
    const owner = await activeWriterSpending(this.users, this.writes, writer.value);
    if (!owner.ok) return owner;

    const published = await this.publish.execute({
      publisher: owner.value,
      edit: { kind: 'create', name: name.value, owner: owner.value.username, fields: fields.value },
    });
    return published.ok ? published : err({ type: 'asset_exists', name: name.value });
  }
}
