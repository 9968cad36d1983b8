// Rule: only the owner, through a session token and within the budget of writes, deletes a live asset; it disappears from every list, its name stays taken, and the
// deletion and its signed Delete activity are written together.
import type { Activity } from '../../../domain/activity.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { AssetWrites } from '../../services/asset-writes.js';
import type { AssetError } from '../../services/asset-checks.js';

export class DeleteAsset {
  constructor(private readonly writes: AssetWrites) {}

  async execute(input: {
    /** The token the request was made with. */
    writer: TokenClaims;
    name: string;
  }): Promise<Result<{ activity: Activity }, AssetError>> {
    const writer = this.writes.writer(input.writer);
    if (!writer.ok) return writer;
    const found = await this.writes.ownedLive(input.name, writer.value);
    if (!found.ok) return found;
    const asset = found.value;
    const owner = await this.writes.spend(writer.value);
    if (!owner.ok) return owner;
    const published = await this.writes.publish.execute({
      publisher: owner.value,
      edit: { kind: 'delete', current: asset },
    });
    if (published.ok) return ok({ activity: published.value.activity });
    return err(published.error === 'entry_too_large' ? { type: 'payload_too_large' } : { type: 'gone' });
  }
}
