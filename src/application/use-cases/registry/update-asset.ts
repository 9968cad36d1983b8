// Rule: only the owner, through a session token and within the budget of writes, changes a live asset's description,
// tags, url, media type, alt text or sensitive flag — at least one of them; its name, content hash and owner are
// fixed (FIXED_ASSET_FIELDS: `changes` has no place for them). The change and its signed Update activity are written
// together.
import type { Activity } from '../../../domain/activity.js';
import type { Asset, AssetFields } from '../../../domain/asset.js';
import { err, type Result } from '../../../domain/result.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { AssetWrites } from '../../services/asset-writes.js';
import { checkFields, type AssetError } from '../../services/asset-checks.js';
import type { User } from '../../../domain/user.js';

const MAX_EDIT_ATTEMPTS = 10;

export type AssetChanges = Partial<
  Pick<AssetFields, 'description' | 'tags' | 'url' | 'mediaType' | 'altText' | 'sensitive'>
>;

export class UpdateAsset {
  constructor(private readonly writes: AssetWrites) {}

  async execute(input: {
    /** The token the request was made with. */
    writer: TokenClaims;
    name: string;
    changes: AssetChanges;
  }): Promise<Result<{ asset: Asset; activity: Activity }, AssetError>> {
    const writer = this.writes.writer(input.writer);
    if (!writer.ok) return writer;
    if (Object.values(input.changes).every((value) => value === undefined)) {
      return err({
        type: 'invalid_request',
        path: '(body)',
        message: 'Give at least one of description, tags, url, media_type, alt_text, sensitive.',
      });
    }
    let owner: User | null = null;
    // Another writer (another process) may change the asset between our read and our write: the store then
    // refuses the stale change, and the edit is applied again on top of the fresh asset.
    for (let attempt = 0; attempt < MAX_EDIT_ATTEMPTS; attempt++) {
      const found = await this.writes.ownedLive(input.name, writer.value);
      if (!found.ok) return found;
      const current = found.value;
      const fields = checkFields({ ...current, ...input.changes });
      if (!fields.ok) return fields;
      if (owner === null) {
        // One edit is one write, however often it is applied again on a fresher read.
        const spent = await this.writes.spend(writer.value);
        if (!spent.ok) return spent;
        owner = spent.value;
      }

      const published = await this.writes.publish.execute({
        publisher: owner,
        edit: { kind: 'update', current, fields: fields.value },
      });
      if (published.ok) return published;
      if (published.error === 'entry_too_large') return err({ type: 'payload_too_large' });
      if (published.error !== 'asset_changed') return err({ type: 'gone' });
    }
    throw new Error(`asset ${input.name} kept changing under ${MAX_EDIT_ATTEMPTS} edit attempts`);
  }
}
