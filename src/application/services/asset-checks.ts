// The checks every asset change shares: who may write, the writer's budget, field rules and ownership of a live
// asset.
import { checkAssetFields, parseAssetName, type Asset, type AssetFields } from '../../domain/asset.js';
import { err, ok, type Result } from '../../domain/result.js';
import { isScoped, type TokenClaims } from '../../domain/token.js';
import { isActive, type User, type Username } from '../../domain/user.js';
import type { AssetRepository } from '../ports/asset-repository.js';
import type { RateLimit } from '../ports/rate-limit.js';
import type { UserRepository } from '../ports/user-repository.js';

/** The expected ways an asset operation fails; `type` is the API.md code. */
export type AssetError =
  | {
      readonly type: 'invalid_request';
      readonly path: string;
      readonly message: string;
      /** Further fields wrong in the same request. */
      readonly others?: readonly { readonly path: string; readonly message: string }[];
    }
  | { readonly type: 'asset_exists'; readonly name: string }
  | { readonly type: 'not_found' }
  | { readonly type: 'gone' }
  /** Not the owner, or a token scoped to an L1 server (it identifies its user to that server only). */
  | { readonly type: 'forbidden'; readonly reason: 'not_owner' | 'scoped_token' }
  /** The account has moved (API.md §4.3): its fediverse presence is elsewhere, `movedTo`. */
  | { readonly type: 'forbidden'; readonly reason: 'moved'; readonly movedTo: string }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number }
  /** The signed activity the change makes would exceed what one entry of the transparency log holds. */
  | { readonly type: 'payload_too_large' };

/**
 * The user an asset change is made for. Only a session token writes: a token scoped to an L1 server was handed
 * to that server to identify the user, and must not let it publish signed activities in the user's name.
 */
export function writerOf(token: TokenClaims): Result<Username, AssetError> {
  return isScoped(token) ? err({ type: 'forbidden', reason: 'scoped_token' }) : ok(token.username);
}

/**
 * The second half of every asset write's preamble, once the request itself has been judged: the writer's account,
 * which must be active — a deleted or disabled account writes nothing, even through a request signed in before —
 * and one write of its budget (every write appends a signed activity sent to every follower). Writes refused for
 * their input never get here, so they count nothing; nor does a moved account's (API.md §4.3), refused first.
 */
export async function activeWriterSpending(
  users: UserRepository,
  writes: RateLimit,
  writer: Username,
): Promise<Result<User, AssetError>> {
  const owner = await users.findByUsername(writer);
  if (!owner || !isActive(owner)) return err({ type: 'forbidden', reason: 'not_owner' });
  if (owner.move.movedTo !== null)
    return err({ type: 'forbidden', reason: 'moved', movedTo: owner.move.movedTo });
  const verdict = await writes.consume(owner.username);
  return verdict.limited
    ? err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds })
    : ok(owner);
}

/** The domain's field rules (checkAssetFields), applied whatever the edge already checked. */
export function checkFields(fields: AssetFields): Result<AssetFields, AssetError> {
  const checked = checkAssetFields(fields);
  return checked.ok ? checked : err({ type: 'invalid_request', ...checked.error });
}

/** Finds a live asset the actor owns, or says why not. */
export async function ownedLiveAsset(
  assets: AssetRepository,
  name: string,
  actor: Username,
): Promise<Result<Asset, AssetError>> {
  const parsed = parseAssetName(name);
  const asset = parsed.ok ? await assets.findByName(parsed.value) : null;
  if (!asset) return err({ type: 'not_found' });
  if (asset.deletedAt) return err({ type: 'gone' });
  if (asset.owner !== actor) return err({ type: 'forbidden', reason: 'not_owner' });
  return ok(asset);
}
